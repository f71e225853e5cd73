//! Parts of the app fetched on first use. The release build (`cargo xtask`, xtask/src/split.rs,
//! the `split` feature) moves each function marked with [`on_demand`] into a wasm module of
//! its own, outside the first load; the page fetches it the first time the function is called.
//! Unsplit builds (`trunk serve`, the wasm-bindgen tests) call the function in place.
//!
//! A module that cannot be fetched (the page's server stopped, the network dropped) must not take
//! the page down: every split function returns `Result<_, OnDemandError>` and the splitter's
//! `fallible` mode turns a failed load into [`OnDemandError::NotLoaded`] instead of a panic, which
//! in wasm would abort the whole app. A later call tries the fetch again.

/// Why a function fetched on demand gave no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnDemandError {
    /// The module holding the function could not be fetched or instantiated.
    #[cfg_attr(not(feature = "split"), allow(dead_code))]
    NotLoaded,
    /// The function ran and failed with this message.
    Failed(String),
}

/// What a user reads when the part of the page that does `what` (e.g. "reads the model's
/// worker") could not be fetched.
pub fn not_loaded(what: &str) -> String {
    format!(
        "the part of this page that {what} could not be fetched from the page's server (is it \
         still running?); try again"
    )
}

impl OnDemandError {
    /// The error as text; `what` names the part for [`not_loaded`].
    pub fn into_message(self, what: &str) -> String {
        match self {
            Self::NotLoaded => not_loaded(what),
            Self::Failed(message) => message,
        }
    }
}

impl From<String> for OnDemandError {
    fn from(message: String) -> Self {
        Self::Failed(message)
    }
}

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for OnDemandError {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        Self::NotLoaded
    }
}

/// Marks a plain (not `async`) function returning `Result<_, OnDemandError>` as a split point
/// in module `$module`: `on_demand!(module_name, fn name(..) -> Result<..> { .. })`. Functions
/// that share a module name are fetched together. Call it through [`call_on_demand!`].
macro_rules! on_demand {
    ($module:ident, $(#[$meta:meta])* $vis:vis fn $($rest:tt)*) => {
        #[cfg_attr(
            feature = "split",
            ::leptos::wasm_split::wasm_split(
                $module,
                wasm_split_path = ::leptos::wasm_split,
                fallible
            )
        )]
        $(#[$meta])* $vis fn $($rest)*
    };
}

/// Calls a function marked with [`on_demand!`]: awaited where it is split, in place elsewhere.
/// Use it inside an `async` block.
#[cfg(feature = "split")]
macro_rules! call_on_demand {
    ($call:expr) => {
        $call.await
    };
}

#[cfg(not(feature = "split"))]
macro_rules! call_on_demand {
    ($call:expr) => {
        $call
    };
}

pub(crate) use {call_on_demand, on_demand};
