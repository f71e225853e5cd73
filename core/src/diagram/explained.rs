//! A row's spec, wherever its diagram defines it ([`super::row_spec::row_specs`]): its
//! explanation and what it carries. Every row has exactly one (a test checks).

use super::row_spec::Explanation;
use super::rows::Row;
use super::{app, authorization, browse, tool_discovery, tool_execution};

/// Explained where no diagram explains the row: never, since each row is one diagram's.
const UNEXPLAINED: Explanation = Explanation {
    both: None,
    legacy: None,
    modern: None,
    legacy_path: None,
};

/// `row`'s explanation, from its diagram's file.
pub fn explanation(row: Row) -> &'static Explanation {
    authorization::explanation(row)
        .or_else(|| tool_discovery::explanation(row))
        .or_else(|| tool_execution::explanation(row))
        .or_else(|| browse::explanation(row))
        .or_else(|| app::explanation(row))
        .unwrap_or(&UNEXPLAINED)
}

/// Whether `payload` is what `row` carries when it finishes.
pub fn fits(row: Row, payload: Option<&crate::record::payload::Payload>) -> bool {
    authorization::fits(row, payload)
        .or_else(|| tool_discovery::fits(row, payload))
        .or_else(|| tool_execution::fits(row, payload))
        .or_else(|| browse::fits(row, payload))
        .or_else(|| app::fits(row, payload))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_specified_by_exactly_one_diagram() {
        for &row in Row::ALL {
            let found = [
                authorization::explanation(row),
                tool_discovery::explanation(row),
                tool_execution::explanation(row),
                browse::explanation(row),
                app::explanation(row),
            ];
            assert_eq!(found.iter().flatten().count(), 1, "{row}");
            assert_ne!(explanation(row), &UNEXPLAINED, "{row}");
        }
    }
}
