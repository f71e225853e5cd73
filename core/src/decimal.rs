//! Numbers written with a fixed number of decimals from integer digits: `{:.1}` and `{}` on a
//! float pull the float formatter (about 16 KB of wasm) into the page's first load.

use std::fmt;

/// `value` with `places` decimals (at most 6), rounded half away from zero: `fixed(12.34, 1)` is
/// `12.3`. Not a finite number: `?`.
pub fn fixed(value: f64, places: u8) -> Fixed {
    Fixed {
        value,
        places: places.min(6),
        trim: false,
    }
}

/// `value` with at most `places` decimals and no trailing zeros: `short(120.0, 1)` is `120`,
/// `short(37.25, 1)` is `37.3` (an SVG coordinate, a size in an attribute).
pub fn short(value: f64, places: u8) -> Fixed {
    Fixed {
        trim: true,
        ..fixed(value, places)
    }
}

/// A number as [`fixed`] or [`short`] write it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fixed {
    value: f64,
    places: u8,
    trim: bool,
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.value.is_finite() {
            return f.write_str("?");
        }
        let scale = 10u64.pow(u32::from(self.places));
        // Saturates for numbers beyond u64 (never drawn or timed here).
        let scaled = (self.value.abs() * scale as f64 + 0.5).floor() as u64;
        let (whole, mut part) = (scaled / scale, scaled % scale);
        let mut width = usize::from(self.places);
        if self.trim {
            while width > 0 && part % 10 == 0 {
                part /= 10;
                width -= 1;
            }
        }
        let sign = if self.value < 0.0 && scaled > 0 {
            "-"
        } else {
            ""
        };
        if width == 0 {
            write!(f, "{sign}{whole}")
        } else {
            write!(f, "{sign}{whole}.{part:0width$}")
        }
    }
}

/// A plain decimal such as `2`, `0.5` or `1.25` (digits, at most one point, at most 9 digits
/// after it): `str::parse::<f64>` pulls the float parser (about 6 KB of wasm) into the first load.
pub fn parse(text: &str) -> Option<f64> {
    let (whole, part) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && part.is_empty()) || !digits(whole) || !digits(part) || part.len() > 9 {
        return None;
    }
    let whole: f64 = whole
        .bytes()
        .fold(0.0, |n, b| n * 10.0 + f64::from(b - b'0'));
    let (numerator, scale) = part.bytes().fold((0u64, 1u64), |(n, scale), b| {
        (n * 10 + u64::from(b - b'0'), scale * 10)
    });
    Some(whole + numerator as f64 / scale as f64)
}

impl From<Fixed> for String {
    fn from(n: Fixed) -> String {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_decimals_asked_for() {
        assert_eq!(fixed(12.34, 1).to_string(), "12.3");
        assert_eq!(fixed(12.35, 1).to_string(), "12.4");
        assert_eq!(fixed(0.04, 1).to_string(), "0.0");
        assert_eq!(fixed(7.0, 2).to_string(), "7.00");
        assert_eq!(fixed(1999.6, 0).to_string(), "2000");
        assert_eq!(fixed(0.05, 2).to_string(), "0.05");
        assert_eq!(fixed(2.71, 9).to_string(), "2.710000");
    }

    #[test]
    fn negative_numbers_keep_their_sign_unless_they_round_to_zero() {
        assert_eq!(fixed(-2.26, 1).to_string(), "-2.3");
        assert_eq!(fixed(-0.04, 1).to_string(), "0.0");
        assert_eq!(short(-12.0, 1).to_string(), "-12");
    }

    #[test]
    fn short_drops_trailing_zeros() {
        assert_eq!(short(120.0, 1).to_string(), "120");
        assert_eq!(short(37.25, 2).to_string(), "37.25");
        assert_eq!(short(37.5, 2).to_string(), "37.5");
        assert_eq!(short(0.0, 2).to_string(), "0");
        assert_eq!(short(0.999, 1).to_string(), "1");
    }

    #[test]
    fn parses_plain_decimals() {
        assert_eq!(parse("2"), Some(2.0));
        assert_eq!(parse("0.5"), Some(0.5));
        assert_eq!(parse("1.25"), Some(1.25));
        assert_eq!(parse(".5"), Some(0.5));
        assert_eq!(parse("3."), Some(3.0));
        assert_eq!(parse("0.1"), "0.1".parse().ok());
    }

    #[test]
    fn refuses_what_is_not_a_plain_decimal() {
        for bad in [
            "",
            ".",
            "1.2.3",
            "-1",
            "+1",
            "1e3",
            "fast",
            " 1",
            "1,5",
            "0.1234567890",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn what_is_not_a_number_is_said_so() {
        assert_eq!(fixed(f64::NAN, 1).to_string(), "?");
        assert_eq!(short(f64::INFINITY, 1).to_string(), "?");
    }

    #[test]
    fn agrees_with_the_float_formatter_away_from_ties() {
        // Hundredths: a tie (x.x5 for one decimal, x.50 for none) is left to each's rounding.
        for i in 0..2000 {
            if (i * 37) % 10 == 5 || (i * 37) % 100 == 50 {
                continue;
            }
            let v = f64::from(i) * 0.37 - 300.0;
            if v.abs() < 1.0 {
                continue; // the float formatter writes `-0`; this writes `0`, tested above
            }
            assert_eq!(fixed(v, 1).to_string(), format!("{v:.1}"), "{v}");
            assert_eq!(fixed(v, 0).to_string(), format!("{v:.0}"), "{v}");
        }
    }
}
