//! Keeping the current row in view while the run goes on. The decisions are plain functions
//! (when to reveal a row, how far to scroll, which user actions mean "I scrolled away"); the
//! browser glue at the end only measures, scrolls and listens.
//!
//! Following is the cursor's `follow` flag: while it is on, the selection moves to each row that
//! becomes active and the page scrolls to it. A user scroll (wheel, touch, the page's scrollbar,
//! a scrolling key) turns it off; the "follow" toggle ([`super::controller::Controller::follow`])
//! turns it back on. The page's own scrolling never turns it off: only user input counts.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::controller::Controller;
use crate::diagram::Row;
use crate::ui::history::Cursor;

/// A vertical extent in viewport pixels (CSS px, top < bottom).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    pub top: f64,
    pub bottom: f64,
}

/// Where a revealed row lands: this fraction of the free room above it, so the rows that follow
/// are in view too.
const LAND_AT: f64 = 0.3;
/// Room kept above a row taller than the band.
const MARGIN: f64 = 12.0;

/// How far to scroll the page (positive: down) so that `row` lies inside `band`, the part of the
/// viewport not covered by the sticky player bar; `None` when it already does.
pub fn scroll_delta(row: Span, band: Span) -> Option<f64> {
    if row.top >= band.top && row.bottom <= band.bottom {
        return None;
    }
    let room = band.bottom - band.top;
    let height = row.bottom - row.top;
    let land = if height + 2.0 * MARGIN >= room {
        band.top + MARGIN
    } else {
        band.top + (room - height) * LAND_AT
    };
    let delta = row.top - land;
    (delta.abs() >= 1.0).then_some(delta)
}

/// A row to bring into view, and whether to glide there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reveal {
    pub row: Row,
    pub smooth: bool,
}

/// Whether the page should scroll after the cursor went from `before` to `now`: when the
/// selection moved (the run's newest row while following, ←/→/Home/End, a link), when following
/// was turned back on, and once on load (a deep-linked row, at once). Turning following off
/// never scrolls: that is the user scrolling away.
pub fn reveal(before: Option<Cursor>, now: Cursor) -> Option<Reveal> {
    let row = now.selected?;
    match before {
        None => Some(Reveal { row, smooth: false }),
        Some(b) if b.selected != now.selected || (!b.follow && now.follow) => {
            Some(Reveal { row, smooth: true })
        }
        Some(_) => None,
    }
}

/// Keys that scroll the page and that the player does not take (it takes Space, ←, →, Home
/// and End).
pub fn is_scroll_key(key: &str) -> bool {
    matches!(key, "PageUp" | "PageDown" | "ArrowUp" | "ArrowDown")
}

/// A wheel turn that scrolls the page up or down (not a pinch zoom or a sideways scroll).
pub fn wheel_scrolls_page(dx: f64, dy: f64, ctrl: bool) -> bool {
    !ctrl && dy.abs() > dx.abs()
}

/// A press at `x` lands on the page's vertical scrollbar (right of the layout viewport).
pub fn on_scrollbar(x: f64, client_width: f64) -> bool {
    client_width > 0.0 && x >= client_width
}

// ---- browser glue ----

/// Stops following, if on: the user took over the scrolling.
pub fn stop_following(ctl: Controller) {
    if ctl.cursor.with_untracked(|c| c.follow) {
        ctl.cursor.update(|c| c.follow = false);
    }
}

fn closest(target: Option<web_sys::EventTarget>, selector: &str) -> Option<web_sys::Element> {
    target?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest(selector)
        .ok()
        .flatten()
}

/// Whether an event happened inside the inspector while it scrolls on its own (beside the
/// diagrams on a wide screen): scrolling there leaves the diagrams where they are. Below the
/// diagrams on a narrow screen it is part of the page, and scrolling it scrolls the page.
fn in_scrolling_inspector(target: Option<web_sys::EventTarget>) -> bool {
    closest(target, ".mf-inspector").is_some_and(|el| el.scroll_height() > el.client_height())
}

/// Keys typed into a form field do not scroll the page.
fn in_form_field(target: Option<web_sys::EventTarget>) -> bool {
    closest(target, "input, textarea, select").is_some()
}

fn reduced_motion() -> bool {
    window()
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// Scrolls `row` of the diagrams into the band below the player bar, after the next layout.
fn scroll_to(reveal: Reveal) {
    request_animation_frame(move || {
        let document = document();
        let selector = format!(".mf-row[data-row='{}']", reveal.row.id());
        let Some(el) = document.query_selector(&selector).ok().flatten() else {
            return;
        };
        let r = el.get_bounding_client_rect();
        let bar = document
            .query_selector(".mf-player")
            .ok()
            .flatten()
            .map(|b| b.get_bounding_client_rect().bottom())
            .unwrap_or(0.0)
            .max(0.0);
        let height = window().inner_height().ok().and_then(|h| h.as_f64());
        let band = Span {
            top: bar,
            bottom: height.unwrap_or(0.0),
        };
        let row = Span {
            top: r.top(),
            bottom: r.bottom(),
        };
        if let Some(dy) = scroll_delta(row, band) {
            let options = web_sys::ScrollToOptions::new();
            options.set_top(dy);
            options.set_behavior(if reveal.smooth && !reduced_motion() {
                web_sys::ScrollBehavior::Smooth
            } else {
                web_sys::ScrollBehavior::Instant
            });
            window().scroll_by_with_scroll_to_options(&options);
        }
        // Sideways too, where the diagrams scroll in their column (a phone): the row's arrow
        // comes into the column's view.
        let arrow = el.query_selector(".mf-arrow").ok().flatten();
        let column = el.closest(".mf-diagrams").ok().flatten();
        if let (Some(arrow), Some(column)) = (arrow, column) {
            let (a, c) = (
                arrow.get_bounding_client_rect(),
                column.get_bounding_client_rect(),
            );
            let along = |left: f64, right: f64| Span {
                top: left,
                bottom: right,
            };
            if let Some(dx) = scroll_delta(along(a.left(), a.right()), along(c.left(), c.right())) {
                let options = web_sys::ScrollToOptions::new();
                options.set_left(dx);
                column.scroll_by_with_scroll_to_options(&options);
            }
        }
    });
}

/// Keeps the selected row in view and listens for the user scrolling away. Call once per page.
pub fn keep_in_view(ctl: Controller) {
    Effect::new(move |before: Option<Cursor>| {
        let now = ctl.cursor.get();
        if let Some(r) = reveal(before, now) {
            scroll_to(r);
        }
        now
    });
    let wheel = window_event_listener(ev::wheel, move |e| {
        if wheel_scrolls_page(e.delta_x(), e.delta_y(), e.ctrl_key())
            && !in_scrolling_inspector(e.target())
        {
            stop_following(ctl);
        }
    });
    let touch = window_event_listener(ev::touchmove, move |e| {
        if !in_scrolling_inspector(e.target()) {
            stop_following(ctl);
        }
    });
    let press = window_event_listener(ev::pointerdown, move |e| {
        let width = document()
            .document_element()
            .map(|d| f64::from(d.client_width()))
            .unwrap_or(0.0);
        if on_scrollbar(f64::from(e.client_x()), width) {
            stop_following(ctl);
        }
    });
    let keys = window_event_listener(ev::keydown, move |e| {
        let target = e.target();
        if is_scroll_key(&e.key())
            && !in_form_field(target.clone())
            && !in_scrolling_inspector(target)
        {
            stop_following(ctl);
        }
    });
    on_cleanup(move || {
        wheel.remove();
        touch.remove();
        press.remove();
        keys.remove();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const BAND: Span = Span {
        top: 60.0,
        bottom: 800.0,
    };

    fn row(top: f64) -> Span {
        Span {
            top,
            bottom: top + 40.0,
        }
    }

    #[test]
    fn a_row_in_view_stays_put() {
        assert_eq!(scroll_delta(row(60.0), BAND), None);
        assert_eq!(scroll_delta(row(400.0), BAND), None);
        assert_eq!(scroll_delta(row(760.0), BAND), None);
    }

    #[test]
    fn a_row_below_the_fold_lands_a_third_down() {
        let dy = scroll_delta(row(790.0), BAND).expect("scrolls");
        assert!(dy > 0.0);
        let landed = row(790.0 - dy);
        assert!(landed.top >= BAND.top && landed.bottom <= BAND.bottom);
        assert!((landed.top - (60.0 + 700.0 * LAND_AT)).abs() < 1e-9);
        // Far below, the same place.
        let far = scroll_delta(row(5000.0), BAND).expect("scrolls");
        assert!((5000.0 - far - landed.top).abs() < 1e-9);
    }

    #[test]
    fn a_row_under_the_player_bar_or_above_scrolls_up() {
        let dy = scroll_delta(row(30.0), BAND).expect("under the bar");
        assert!(dy < 0.0);
        assert!(scroll_delta(row(-900.0), BAND).expect("above") < -900.0);
    }

    #[test]
    fn a_row_taller_than_the_band_shows_its_top() {
        let tall = Span {
            top: 900.0,
            bottom: 1900.0,
        };
        let dy = scroll_delta(tall, BAND).expect("scrolls");
        assert_eq!(tall.top - dy, BAND.top + MARGIN);
    }

    fn cursor(selected: Option<Row>, follow: bool) -> Cursor {
        Cursor { selected, follow }
    }

    #[test]
    fn reveals_on_load_on_a_new_row_and_on_follow_again() {
        let d28 = Some(Row::CallToolResult);
        // A deep link: at once.
        assert_eq!(
            reveal(None, cursor(d28, false)),
            Some(Reveal {
                row: Row::CallToolResult,
                smooth: false
            })
        );
        // Nothing selected yet: nothing to show.
        assert_eq!(reveal(None, Cursor::default()), None);
        // The run moved on while following: glide.
        let before = cursor(Some(Row::Prepare), true);
        let now = cursor(Some(Row::Initialize), true);
        assert_eq!(reveal(Some(before), now).map(|r| r.smooth), Some(true));
        // The user scrolled away: no scrolling back.
        let away = cursor(Some(Row::Initialize), false);
        assert_eq!(reveal(Some(now), away), None);
        // Nor while the run goes on without following (the selection stays).
        assert_eq!(reveal(Some(away), away), None);
        // The toggle: back to the row.
        assert_eq!(
            reveal(Some(away), now).map(|r| r.row),
            Some(Row::Initialize)
        );
    }

    #[test]
    fn what_counts_as_the_user_scrolling() {
        assert!(is_scroll_key("PageDown") && is_scroll_key("ArrowUp"));
        for key in [" ", "ArrowRight", "ArrowLeft", "Home", "End", "a"] {
            assert!(!is_scroll_key(key), "{key}");
        }
        assert!(wheel_scrolls_page(0.0, 120.0, false));
        assert!(!wheel_scrolls_page(0.0, 120.0, true), "pinch zoom");
        assert!(!wheel_scrolls_page(80.0, 10.0, false), "sideways");
        assert!(on_scrollbar(1275.0, 1265.0));
        assert!(!on_scrollbar(600.0, 1265.0));
        assert!(!on_scrollbar(0.0, 0.0));
    }
}
