//! What a test run reports: per stage, its time and its tests passed / failed / skipped / not
//! run, printed as a table at the end of every run (a failed one too) and written to
//! `target/test-report.json`. A test that could not run (its server did not start, its runner
//! stopped early) is counted as not run, and fails its stage like a failed one.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::sh::Result;

/// Tests counted in a stage.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub passed: u64,
    pub failed: u64,
    pub skipped: u64,
    /// Tests the stage has but could not run.
    pub not_run: u64,
}

impl Counts {
    /// One check that passed or failed.
    pub fn one(&mut self, ok: bool) {
        if ok {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
    }

    pub fn add(&mut self, other: Counts) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.skipped += other.skipped;
        self.not_run += other.not_run;
    }

    /// Tests run so far (passed or failed).
    pub fn ran(&self) -> u64 {
        self.passed + self.failed
    }

    /// Of `expected` tests, those not counted yet are counted as not run.
    pub fn expect(&mut self, expected: u64) {
        self.not_run += expected.saturating_sub(self.ran() + self.not_run);
    }

    /// Adds what a summary line says: libtest's `test result: ok. 5 passed; 0 failed; 1 ignored;
    /// …` (wasm-bindgen-test-runner prints the same) or a plain `[word: ]N passed, N failed[, N
    /// skipped]` (the end-to-end suite). Other lines add nothing.
    pub fn read_line(&mut self, line: &str) {
        if let Some(found) = summary(line) {
            self.add(found);
        }
    }
}

fn number_before(text: &str, word: &str) -> Option<u64> {
    let at = text.find(word)?;
    text[..at].split_whitespace().last()?.parse().ok()
}

fn summary(line: &str) -> Option<Counts> {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix("test result: ") {
        return Some(Counts {
            passed: number_before(rest, " passed")?,
            failed: number_before(rest, " failed")?,
            skipped: number_before(rest, " ignored").unwrap_or(0),
            not_run: 0,
        });
    }
    let body = match line.split_once(": ") {
        Some((word, body)) if !word.contains(char::is_whitespace) => body,
        _ => line,
    };
    let mut parts = body.split(", ");
    let passed = parts.next()?.strip_suffix(" passed")?.parse().ok()?;
    let failed = parts.next()?.strip_suffix(" failed")?.parse().ok()?;
    let skipped = match parts.next() {
        Some(part) => part.strip_suffix(" skipped")?.parse().ok()?,
        None => 0,
    };
    if parts.next().is_some() {
        return None;
    }
    Some(Counts {
        passed,
        failed,
        skipped,
        not_run: 0,
    })
}

/// Runs `cmd` with its standard output passed through line by line and read for summary lines
/// into `counts`; fails if it exits non-zero.
pub fn run_counted(cmd: &mut Command, counts: &mut Counts) -> Result<()> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start {:?}: {e}", cmd.get_program()))?;
    // Lines naming a failure (`FAIL name: why`, as the e2e runner recaps them) go into the
    // stage's outcome, so the report at the end of a long log says what failed.
    let mut named = Vec::new();
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines().map_while(|l| l.ok()) {
            println!("{line}");
            counts.read_line(&line);
            if line.starts_with("FAIL ") && named.len() < 5 {
                named.push(line);
            } else if line.starts_with("FLAKY ") {
                note(line);
            }
        }
    }
    let status = child.wait()?;
    if status.success() {
        Ok(())
    } else if named.is_empty() {
        Err(format!("{:?} failed ({status})", cmd.get_program()).into())
    } else {
        Err(format!(
            "{:?} failed ({status}): {}",
            cmd.get_program(),
            named.join("; ")
        )
        .into())
    }
}

/// What the report says under its table: scenarios that passed only on their second try.
static NOTES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// A line for the report, under its table.
pub fn note(line: String) {
    NOTES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(line);
}

/// The notes so far.
pub fn notes() -> Vec<String> {
    NOTES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

/// One stage's line of the report.
pub struct Row {
    pub stage: &'static str,
    pub seconds: f64,
    pub counts: Counts,
    /// Why the stage failed, if it did.
    pub error: Option<String>,
}

impl Row {
    pub fn ok(&self) -> bool {
        self.error.is_none() && self.counts.failed == 0 && self.counts.not_run == 0
    }
}

fn total(rows: &[Row]) -> (f64, Counts) {
    let mut counts = Counts::default();
    let mut seconds = 0.0;
    for row in rows {
        counts.add(row.counts);
        seconds += row.seconds;
    }
    (seconds, counts)
}

/// The table, ending with the plain `total: N passed, N failed, N skipped` line.
pub fn table(rows: &[Row]) -> String {
    let mut out = format!(
        "{:<12} {:>8} {:>7} {:>7} {:>8} {:>8}  {}\n",
        "stage", "seconds", "passed", "failed", "skipped", "not run", "outcome"
    );
    for row in rows {
        let outcome = match &row.error {
            None if row.ok() => "ok".to_owned(),
            None => "FAILED".to_owned(),
            Some(e) => format!("FAILED: {e}"),
        };
        out.push_str(&format!(
            "{:<12} {:>8.0} {:>7} {:>7} {:>8} {:>8}  {}\n",
            row.stage,
            row.seconds,
            row.counts.passed,
            row.counts.failed,
            row.counts.skipped,
            row.counts.not_run,
            outcome
        ));
    }
    let (seconds, counts) = total(rows);
    out.push_str(&format!(
        "{:<12} {:>8.0} {:>7} {:>7} {:>8} {:>8}\n",
        "total", seconds, counts.passed, counts.failed, counts.skipped, counts.not_run
    ));
    // A failed stage that counted nothing failed or not run (a build that broke) still fails
    // the total.
    let failed = counts.failed
        + rows
            .iter()
            .filter(|r| r.error.is_some() && r.counts.failed == 0 && r.counts.not_run == 0)
            .count() as u64;
    out.push_str(&format!(
        "total: {} passed, {failed} failed, {} skipped, {} not run\n",
        counts.passed, counts.skipped, counts.not_run
    ));
    out
}

/// The same as JSON.
pub fn json(rows: &[Row]) -> serde_json::Value {
    let stage = |row: &Row| {
        serde_json::json!({
            "stage": row.stage,
            "seconds": (row.seconds * 10.0).round() / 10.0,
            "passed": row.counts.passed,
            "failed": row.counts.failed,
            "skipped": row.counts.skipped,
            "not_run": row.counts.not_run,
            "ok": row.ok(),
            "error": row.error,
        })
    };
    let (seconds, counts) = total(rows);
    serde_json::json!({
        "stages": rows.iter().map(stage).collect::<Vec<_>>(),
        "total": {
            "seconds": (seconds * 10.0).round() / 10.0,
            "passed": counts.passed,
            "failed": counts.failed,
            "skipped": counts.skipped,
            "not_run": counts.not_run,
            "ok": rows.iter().all(Row::ok),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(passed: u64, failed: u64, skipped: u64) -> Counts {
        Counts {
            passed,
            failed,
            skipped,
            not_run: 0,
        }
    }

    /// The table's line of `stage`.
    fn stage_line<'a>(table: &'a str, stage: &str) -> &'a str {
        table
            .lines()
            .find(|l| l.starts_with(stage))
            .unwrap_or_default()
    }

    #[test]
    fn libtest_and_plain_summaries_are_counted() {
        let mut c = Counts::default();
        c.read_line(
            "test result: ok. 12 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out; finished in 0.31s",
        );
        c.read_line(
            "test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 5 filtered out",
        );
        c.read_line("e2e: 22 passed, 1 failed");
        c.read_line("4 passed, 0 failed, 3 skipped");
        assert_eq!(c, counts(41, 2, 5));
    }

    #[test]
    fn other_lines_count_nothing() {
        let mut c = Counts::default();
        for line in [
            "Passed: 12/12, 0 failed, 0 warnings",
            "running 5 tests",
            "test foo ... ok",
            "a sentence: 3 passed, 2 failed, and more",
            "1 passed, 2 failed, 3 skipped, 4 more",
            "two words: 1 passed, 0 failed",
        ] {
            c.read_line(line);
        }
        assert_eq!(c, Counts::default());
    }

    #[test]
    fn the_table_ends_with_a_total_and_counts_a_broken_build_as_a_failure() {
        let rows = [
            Row {
                stage: "lint",
                seconds: 10.0,
                counts: counts(3, 0, 0),
                error: None,
            },
            Row {
                stage: "e2e",
                seconds: 20.4,
                counts: counts(0, 0, 0),
                error: Some("the build failed".into()),
            },
        ];
        let table = table(&rows);
        assert!(stage_line(&table, "e2e").contains("FAILED: the build failed"));
        assert_eq!(
            table.lines().last(),
            Some("total: 3 passed, 1 failed, 0 skipped, 0 not run")
        );
        let json = json(&rows);
        assert_eq!(json["total"]["passed"], 3);
        assert_eq!(json["total"]["ok"], false);
        assert_eq!(json["stages"][1]["error"], "the build failed");
    }

    #[test]
    fn tests_that_could_not_run_are_counted_and_fail_their_stage() {
        let mut e2e = counts(20, 2, 0);
        e2e.expect(33);
        assert_eq!((e2e.ran(), e2e.not_run), (22, 11));
        e2e.expect(33);
        assert_eq!(e2e.not_run, 11, "counting twice adds nothing");
        let rows = [Row {
            stage: "e2e",
            seconds: 1.0,
            counts: e2e,
            error: None,
        }];
        assert!(!rows[0].ok());
        let table = table(&rows);
        assert!(stage_line(&table, "e2e").contains("FAILED"));
        assert_eq!(
            table.lines().last(),
            Some("total: 20 passed, 2 failed, 0 skipped, 11 not run")
        );
        assert_eq!(json(&rows)["total"]["not_run"], 11);
    }
}
