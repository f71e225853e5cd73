"""A server that fails before reading anything: a config error on stderr, exit code 3."""

import sys

sys.stderr.write("loading config\n")
sys.stderr.write("error: cannot open config file 'missing.toml'\n")
sys.stderr.flush()
sys.exit(3)
