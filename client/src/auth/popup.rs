//! The browser's consent: the authorization page in a popup the user opens (a click, so no popup
//! blocker stands in the way), watched until it comes back to this page's origin at the redirect
//! URI, whose address then carries the code. Nothing listens on the redirect URI: once the popup
//! is same-origin again, its address can be read.

use std::cell::RefCell;
use std::rc::Rc;

use futures_channel::oneshot;
use futures_util::future::LocalBoxFuture;

use super::{AuthError, Consent};
use crate::clock::{BrowserClock, Clock};

/// How often the popup is looked at.
const POLL_MS: u32 = 200;
/// The longest the page waits for the user at the authorization server.
const MAX_WAIT_MS: u32 = 10 * 60 * 1000;

type Reply = Rc<RefCell<Option<oneshot::Sender<Result<String, AuthError>>>>>;

/// The authorization page, waiting for the user to open it.
#[derive(Clone)]
struct AuthPrompt {
    /// The authorization request (no secret in it: the code challenge, not the verifier).
    url: String,
    redirect_uri: String,
    reply: Reply,
}

impl std::fmt::Debug for AuthPrompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthPrompt")
            .field("url", &self.url)
            .finish()
    }
}

impl PartialEq for AuthPrompt {
    fn eq(&self, other: &Self) -> bool {
        self.url == other.url && Rc::ptr_eq(&self.reply, &other.reply)
    }
}

impl AuthPrompt {
    fn answer(&self, outcome: Result<String, AuthError>) {
        if let Some(tx) = self.reply.borrow_mut().take() {
            let _ = tx.send(outcome);
        }
    }

    /// The user said no.
    fn cancel(&self) {
        self.answer(Err(AuthError::UserAgent(
            "you cancelled the authorization: no token, so the server's request stays refused"
                .into(),
        )));
    }

    /// Opens the authorization page in a popup (call it in the user's click) and watches it.
    fn open(&self) {
        let Some(window) = web_sys::window() else {
            return self.answer(Err(AuthError::UserAgent("no browser window".into())));
        };
        let popup = window
            // A new window each time: one closed a moment ago may still be closing under a name.
            // Blank first, so that this page can cut the authorization server's `window.opener`
            // before it loads there; this page keeps its own handle to watch for the redirect.
            .open_with_url_and_target_and_features("", "_blank", "popup,width=560,height=720")
            .ok()
            .flatten();
        let Some(popup) = popup else {
            return self.answer(Err(AuthError::UserAgent(
                "the browser blocked the authorization window: allow pop-ups for this page and \
                 try again"
                    .into(),
            )));
        };
        let opened = popup
            .set_opener(&wasm_bindgen::JsValue::NULL)
            .and_then(|()| popup.location().replace(&self.url));
        if opened.is_err() {
            let _ = popup.close();
            return self.answer(Err(AuthError::UserAgent(
                "the authorization window could not be sent to the authorization server".into(),
            )));
        }
        let this = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let mut waited = 0;
            let outcome = loop {
                if this.reply.borrow().is_none() {
                    return;
                }
                // Readable only once the popup is back on this page's origin.
                if let Ok(href) = popup.location().href()
                    && href.starts_with(&this.redirect_uri)
                {
                    break Ok(href);
                }
                if popup.closed().unwrap_or(true) {
                    break Err(AuthError::UserAgent(
                        "the authorization window was closed before it came back with a code \
                         (or this page cannot see it: a Cross-Origin-Opener-Policy of \
                         same-origin on this page cuts a popup off once it leaves the origin)"
                            .into(),
                    ));
                }
                if waited >= MAX_WAIT_MS {
                    break Err(AuthError::UserAgent(format!(
                        "no answer from the authorization window in {} minutes",
                        MAX_WAIT_MS / 60_000
                    )));
                }
                BrowserClock.sleep(POLL_MS).await;
                waited += POLL_MS;
            };
            let _ = popup.close();
            this.answer(outcome);
        });
    }
}

/// The page's [`Consent`]: each authorization is put to the user through `show` (the page's
/// dialog gets the authorization request's URL, and `None` again once it is answered); the
/// dialog's buttons come back through [`Consent::answer`].
pub struct PopupConsent {
    pub show: Rc<dyn Fn(Option<String>)>,
    pending: Rc<RefCell<Option<AuthPrompt>>>,
}

impl PopupConsent {
    pub fn new(show: Rc<dyn Fn(Option<String>)>) -> Self {
        Self {
            show,
            pending: Rc::default(),
        }
    }
}

impl Consent for PopupConsent {
    fn open(
        &self,
        authorization_url: String,
        redirect_uri: String,
    ) -> LocalBoxFuture<'static, Result<String, AuthError>> {
        let (tx, rx) = oneshot::channel();
        let prompt = AuthPrompt {
            url: authorization_url.clone(),
            redirect_uri,
            reply: Rc::new(RefCell::new(Some(tx))),
        };
        *self.pending.borrow_mut() = Some(prompt);
        let (show, pending) = (self.show.clone(), self.pending.clone());
        show(Some(authorization_url));
        Box::pin(async move {
            let outcome = rx.await.unwrap_or_else(|_| {
                Err(AuthError::UserAgent(
                    "the authorization was abandoned".into(),
                ))
            });
            pending.borrow_mut().take();
            show(None);
            outcome
        })
    }

    fn answer(&self, open: bool) {
        let prompt = self.pending.borrow().clone();
        if let Some(prompt) = prompt {
            if open {
                prompt.open();
            } else {
                prompt.cancel();
            }
        }
    }
}
