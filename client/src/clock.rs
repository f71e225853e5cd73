//! Time for the protocol logic: milliseconds on a monotonic clock, and waiting. One [`Clock`]
//! serves a whole run (rows, exchanges, timeouts, the gate's pacing), so a test can drive all of
//! them with one fake clock.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

/// A wait that a [`Clock`] hands out.
pub type Sleep = Pin<Box<dyn Future<Output = ()>>>;

pub trait Clock {
    /// Milliseconds on a monotonic clock.
    fn now_ms(&self) -> f64;
    /// Waits `ms` milliseconds.
    fn sleep(&self, ms: u32) -> Sleep;
}

/// The clock a run shares.
pub type SharedClock = Rc<dyn Clock>;

/// The page's clock: `performance.now()` and `setTimeout` (feature `browser`; it compiles
/// natively too, for the native tests of code that names it, but only works in a browser).
#[cfg(feature = "browser")]
#[derive(Debug, Clone, Copy, Default)]
pub struct BrowserClock;

#[cfg(feature = "browser")]
impl Clock for BrowserClock {
    fn now_ms(&self) -> f64 {
        web_sys::window()
            .and_then(|w| w.performance())
            .map(|p| p.now())
            .unwrap_or(0.0)
    }

    fn sleep(&self, ms: u32) -> Sleep {
        Box::pin(gloo_timers::future::TimeoutFuture::new(ms))
    }
}
