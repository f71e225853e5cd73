// Preloaded (`node --import`) into an example client that puts its terminal in raw mode, so it
// runs with stdin a pipe the scenario writes its commands to.
process.stdin.setRawMode ??= () => process.stdin;
