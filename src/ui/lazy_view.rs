//! Views whose code is fetched the first time they are shown (`crate::on_demand`): dialogs,
//! panels most runs never open, and the inspector's row details. The page keeps a small stand-in that watches when the view is
//! due; then it fetches the module, which hands back a function that builds the view.

use futures_util::future::LocalBoxFuture;

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{Msg, text, tr};
use super::stores::Settings;
use crate::on_demand::OnDemandError;

/// Builds a view fetched on demand.
pub type ViewFn = fn(Controller) -> AnyView;

#[derive(Clone, Copy)]
enum Load {
    Idle,
    Loading,
    Ready(ViewFn),
}

/// Fetches a view's module and hands back the function that builds the view.
pub type Loader = fn() -> LocalBoxFuture<'static, Result<ViewFn, OnDemandError>>;

/// Whether a view is due now (read in a reactive context).
pub type Due = Box<dyn Fn() -> bool + Send + Sync>;

/// Shows the view `load` yields while `due` holds. The module is fetched the first time `due`
/// holds; a failed fetch is said in place of the view, with a button that tries again (as does
/// the next time the view is due). Not generic: every lazy view of the page shares this code.
pub fn lazy_view(ctl: Controller, due: Due, load: Loader) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let due = Memo::new(move |_| due());
    let state = RwSignal::new(Load::Idle);
    let failure = RwSignal::new(None::<OnDemandError>);
    let attempt = RwSignal::new(0u32);
    Effect::new(move |_| {
        attempt.track();
        if due.get() && matches!(state.get_untracked(), Load::Idle) {
            state.set(Load::Loading);
            leptos::task::spawn_local(async move {
                match load().await {
                    Ok(build) => {
                        failure.set(None);
                        state.set(Load::Ready(build));
                    }
                    Err(e) => {
                        failure.set(Some(e));
                        state.set(Load::Idle);
                    }
                }
            });
        }
    });
    move || {
        if !due.get() {
            return None;
        }
        match (state.get(), failure.get()) {
            (Load::Ready(build), _) => Some(build(ctl)),
            (_, Some(error)) => Some(
                view! {
                    <p class="mf-error-line mf-not-loaded" role="alert">
                        {move || match &error {
                            OnDemandError::NotLoaded => text(Msg::ViewNotLoaded, settings.lang.get()).to_owned(),
                            OnDemandError::Failed(e) => e.clone(),
                        }}
                        " "
                        <button class="mf-retry" on:click=move |_| attempt.update(|n| *n += 1)>
                            {tr(settings.lang, Msg::TryAgain)}
                        </button>
                    </p>
                }
                .into_any(),
            ),
            _ => None,
        }
    }
}

/// A panel closed at first (open at load when `open`) whose body is fetched the first time it
/// opens: the connection panel, the message log, the timeline.
pub fn lazy_panel(
    ctl: Controller,
    id: &'static str,
    class: &'static str,
    summary: Msg,
    open: bool,
    load: Loader,
) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let opened = RwSignal::new(open);
    view! {
        // The first toggle of a closed <details> opens it.
        <details id=id class=class open=open on:toggle=move |_| opened.set(true)>
            <summary>{tr(settings.lang, summary)}</summary>
            {lazy_view(ctl, Box::new(move || opened.get()), load)}
        </details>
    }
}
