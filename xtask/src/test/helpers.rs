//! The servers a stage starts for its tests. A helper that cannot start is kept with why, so that
//! only the tests that use it fail (saying so) and every other test still runs.

use std::any::Any;

use crate::sh::Result;

/// The helpers of one stage: those running (alive until dropped) and those that did not start.
#[derive(Default)]
pub struct Helpers {
    running: Vec<Box<dyn Any>>,
    /// Each helper by name: its URL, or why it did not start.
    found: Vec<(&'static str, std::result::Result<String, String>)>,
}

impl Helpers {
    /// Keeps a started helper's process and URL, or why it did not start; returns the URL.
    pub fn add<P: Any>(
        &mut self,
        name: &'static str,
        started: Result<(P, String)>,
    ) -> Option<String> {
        match started {
            Ok((process, url)) => {
                self.running.push(Box::new(process));
                self.found.push((name, Ok(url.clone())));
                Some(url)
            }
            Err(e) => {
                let why = one_line(&e.to_string());
                eprintln!("[helpers] {name} did not start: {why}");
                self.found.push((name, Err(why)));
                None
            }
        }
    }

    /// Each helper's name with its URL, or why it did not start.
    pub fn found(&self) -> &[(&'static str, std::result::Result<String, String>)] {
        &self.found
    }

    /// The helpers that did not start, as `name (why)`.
    pub fn down(&self) -> Vec<String> {
        self.found
            .iter()
            .filter_map(|(name, r)| r.as_ref().err().map(|why| format!("{name} ({why})")))
            .collect()
    }
}

/// An error on one line, clipped: it travels as a command-line argument or a variable.
fn one_line(text: &str) -> String {
    let flat: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(400)
        .collect();
    if flat.is_empty() {
        "it did not start".to_owned()
    } else {
        flat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_that_fails_is_kept_with_why_and_the_others_run() {
        let mut helpers = Helpers::default();
        assert_eq!(
            helpers.add("base", Ok(((), "http://127.0.0.1:1".to_owned()))),
            Some("http://127.0.0.1:1".to_owned())
        );
        let failed: Result<((), String)> =
            Err("llama-server did not start within 60 s\n(exit status: 11)".into());
        assert_eq!(helpers.add("llama-base", failed), None);
        assert_eq!(
            helpers.down(),
            ["llama-base (llama-server did not start within 60 s (exit status: 11))"]
        );
        assert_eq!(helpers.found().len(), 2);
        assert!(helpers.found()[0].1.is_ok());
        assert_eq!(helpers.running.len(), 1);
    }
}
