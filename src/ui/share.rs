//! Export the run (JSON recording, HAR, Mermaid) and load a recording back. The file handling
//! is browser plumbing; what goes into each file is built in `crate::export`.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use super::controller::Controller;
use super::i18n::{Msg, by_lang, fill, text, tr};
use super::stores::Settings;
use crate::diagram::spec::Lang;
use crate::export::recording::{Context, Recording};
use crate::export::{har, mermaid};
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};
use crate::record::run::Run;

fn iso(epoch_ms: f64) -> String {
    js_sys::Date::new(&JsValue::from_f64(epoch_ms))
        .to_iso_string()
        .into()
}

fn recording(run: RwSignal<Run>, settings: Settings) -> Recording {
    let time_origin_ms = web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.time_origin())
        .unwrap_or(0.0);
    let llm = settings.llm.with_untracked(|s| s.label());
    let (server, question) = (
        settings.server.get_untracked(),
        settings.question.get_untracked(),
    );
    run.with_untracked(|run| {
        Recording::new(
            run,
            Context {
                created: iso(js_sys::Date::now()),
                time_origin_ms,
                server: &server,
                question: &question,
                lang: settings.lang.get_untracked().code(),
                llm: &llm,
            },
        )
    })
}

/// Saves `text` as a file named `name` through a temporary object URL.
fn download(name: &str, mime: &str, text: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url)
}

/// What an export writes.
#[derive(Clone, Copy)]
enum Kind {
    Json,
    Har,
    Mermaid,
}

impl Kind {
    /// The file's name and type.
    fn file(self) -> (&'static str, &'static str) {
        match self {
            Kind::Json => ("mcp-flow-run.json", "application/json"),
            Kind::Har => ("mcp-flow-run.har", "application/json"),
            Kind::Mermaid => ("mcp-flow-run.md", "text/markdown"),
        }
    }
}

// Exporting (the recording, its JSON, HAR and Mermaid writers, the download) and the reader run
// only when the user exports or imports, so the release build fetches them on first use
// (`crate::on_demand`).
on_demand!(
    export,
    fn export_run(
        run: RwSignal<Run>,
        settings: Settings,
        kind: Kind,
    ) -> Result<String, OnDemandError> {
        let rec = recording(run, settings);
        let lang = settings.lang.get_untracked();
        let body = match kind {
            Kind::Json => rec.to_json(),
            Kind::Har => serde_json::to_string_pretty(&har::har(&rec, &iso)).unwrap_or_default(),
            Kind::Mermaid => mermaid::mermaid(&rec.run, lang),
        };
        let (name, mime) = kind.file();
        Ok(match download(name, mime, &body) {
            Ok(()) => fill(
                by_lang(lang, "Saved {name}", "已保存 {name}"),
                &[("name", name)],
            ),
            Err(e) => fill(
                by_lang(
                    lang,
                    "Could not save {name}: {error}",
                    "无法保存 {name}：{error}",
                ),
                &[("name", name), ("error", &format!("{e:?}"))],
            ),
        })
    }
);

on_demand!(
    import_recording,
    fn read_recording(json: String) -> Result<Recording, OnDemandError> {
        Ok(Recording::from_json(&json)?)
    }
);

/// The message for a failed export or import of file `name`.
fn failure(error: OnDemandError, lang: Lang, name: &str) -> String {
    match error {
        OnDemandError::NotLoaded => fill(text(Msg::ModuleNotLoaded, lang), &[("name", name)]),
        OnDemandError::Failed(e) => format!("{name}: {e}"),
    }
}

/// The file picked in the file input `ev` came from; the input is emptied, so that picking the
/// same file again reads it again.
pub(super) fn picked_file(ev: &leptos::ev::Event) -> Option<web_sys::File> {
    let input = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())?;
    let file = input.files().and_then(|files| files.get(0));
    input.set_value("");
    file
}

/// The recording in `file`, or the message that says why it is not one.
pub(super) async fn read_recording_file(
    file: web_sys::File,
    lang: Lang,
) -> Result<Recording, String> {
    let name = file.name();
    let read = wasm_bindgen_futures::JsFuture::from(file.text()).await;
    let result = match read.ok().and_then(|t| t.as_string()) {
        Some(json) => call_on_demand!(read_recording(json)),
        None => Err(OnDemandError::Failed(
            text(Msg::FileUnreadable, lang).into(),
        )),
    };
    result.map_err(|e| failure(e, lang, &name))
}

#[component]
pub fn Share(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let message = RwSignal::new(String::new());
    let save = move |kind: Kind| {
        move |_| {
            let lang = settings.lang.get_untracked();
            leptos::task::spawn_local(async move {
                message.set(match call_on_demand!(export_run(ctl.run, settings, kind)) {
                    Ok(said) => said,
                    Err(e) => failure(e, lang, kind.file().0),
                });
            });
        }
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(file) = picked_file(&ev) else {
            return;
        };
        let name = file.name();
        let lang = settings.lang.get_untracked();
        leptos::task::spawn_local(async move {
            match read_recording_file(file, lang).await {
                Ok(rec) => {
                    ctl.load_recording(rec);
                    message.set(fill(
                        text(Msg::Loaded, settings.lang.get_untracked()),
                        &[("name", &name)],
                    ));
                }
                Err(why) => message.set(why),
            }
        });
    };
    view! {
        <div class="mf-share" role="group" aria-label=tr(settings.lang, Msg::ExportImport)>
            <button id="mf-export-json" on:click=save(Kind::Json) title=tr(settings.lang, Msg::ExportJsonHint)>{tr(settings.lang, Msg::ExportJson)}</button>
            <button id="mf-export-har" on:click=save(Kind::Har) title=tr(settings.lang, Msg::HarHint)>"HAR"</button>
            <button id="mf-export-mermaid" on:click=save(Kind::Mermaid) title=tr(settings.lang, Msg::MermaidHint)>"Mermaid"</button>
            <label class="mf-import">
                {tr(settings.lang, Msg::ImportRecording)}
                " "
                <input id="mf-import" type="file" accept=".json,application/json" on:change=import />
            </label>
            <button id="mf-compare-button" title=tr(settings.lang, Msg::CompareHint)
                on:click=move |_| ctl.compare()>
                {tr(settings.lang, Msg::Compare)}
            </button>
            <span id="mf-share-message" class="mf-share-message">{move || message.get()}</span>
        </div>
    }
}
