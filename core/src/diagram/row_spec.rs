//! What a row is besides its arrow: what it carries when it finishes and its explanation, written
//! once per row in its diagram's file with [`row_specs!`], beside the arrows that draw it
//! ([`super::explained`] finds a row's among the diagrams).

/// An explanation in both languages and the spec section it links (a path under the era's
/// specification, e.g. `/server/tools#calling-tools`). `{field}` placeholders name
/// [`crate::record::payload::Field`]s of what the row carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    pub path: &'static str,
    pub en: &'static str,
    pub zh: &'static str,
}

/// A row's explanation: one for both eras, or each era's own (an era's own wins), and where the
/// 2025-11-25 spec has a section that 2026-07-28 moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Explanation {
    pub both: Option<Words>,
    pub legacy: Option<Words>,
    pub modern: Option<Words>,
    pub legacy_path: Option<&'static str>,
}

/// A diagram's rows: for each, what it carries when it finishes (the payload's variants; `[]`
/// for none) and its explanation. Defines `explanation(Row)` and `fits(Row, payload)` in the
/// diagram's module, each `None` for another diagram's row. A row not explained in both eras
/// does not compile.
///
/// ```text
/// Name {
///     carries: [PayloadVariant, ...],
///     both: ("/path", "English", "中文"),   // and/or legacy: (...), modern: (...)
///     legacy_path: "/path",                 // optional: the section in 2025-11-25
/// },
/// ```
macro_rules! row_specs {
    (
        $(
            $row:ident {
                carries: [$($kind:ident),* $(,)?],
                $(both: ($bp:literal, $be:literal, $bz:literal $(,)?),)?
                $(legacy: ($lp:literal, $le:literal, $lz:literal $(,)?),)?
                $(modern: ($mp:literal, $me:literal, $mz:literal $(,)?),)?
                $(legacy_path: $moved:literal,)?
            },
        )*
    ) => {
        /// The explanation of `row`, if it is a row of this diagram.
        pub fn explanation(
            row: $crate::diagram::Row,
        ) -> Option<&'static $crate::diagram::row_spec::Explanation> {
            use $crate::diagram::row_spec::Explanation;
            match row {
                $($crate::diagram::Row::$row => {
                    const E: Explanation = Explanation {
                        both: row_specs!(@words $(($bp, $be, $bz))?),
                        legacy: row_specs!(@words $(($lp, $le, $lz))?),
                        modern: row_specs!(@words $(($mp, $me, $mz))?),
                        legacy_path: row_specs!(@opt $($moved)?),
                    };
                    const _: () = assert!(
                        E.both.is_some() || (E.legacy.is_some() && E.modern.is_some()),
                        concat!(stringify!($row), " is not explained in both eras")
                    );
                    Some(&E)
                })*
                _ => None,
            }
        }

        /// Whether `payload` is what `row` carries when it finishes, if it is a row of this
        /// diagram.
        pub fn fits(
            row: $crate::diagram::Row,
            payload: Option<&$crate::record::payload::Payload>,
        ) -> Option<bool> {
            match row {
                $($crate::diagram::Row::$row => Some(row_specs!(@fits payload $($kind)*)),)*
                _ => None,
            }
        }
    };
    (@fits $payload:ident) => { $payload.is_none() };
    (@fits $payload:ident $($kind:ident)+) => {
        matches!(
            $payload,
            Some($($crate::record::payload::Payload::$kind { .. })|+)
        )
    };
    (@words) => { None };
    (@words ($path:literal, $en:literal, $zh:literal)) => {
        Some($crate::diagram::row_spec::Words { path: $path, en: $en, zh: $zh })
    };
    (@opt) => { None };
    (@opt $value:literal) => { Some($value) };
}
pub(crate) use row_specs;
