//! Where the in-page model is, as the settings show it: not loaded (and how much a first use
//! downloads), downloading or reading from the cache (with progress), loading the weights,
//! ready (from where, how fast it last wrote), or failed.

use crate::decimal::fixed;
use crate::diagram::Lang;
use mcp_flow_smollm_wire::{Loaded, MODEL_BYTES, MODEL_TITLE, Phase};

#[derive(Debug, Clone, PartialEq, Default)]
pub enum Status {
    #[default]
    NotLoaded,
    Loading {
        phase: Phase,
        done: u64,
        total: Option<u64>,
    },
    Ready {
        loaded: Loaded,
        /// Each turn's figures since the model loaded, oldest first (the last
        /// [`MAX_TURNS_KEPT`]); the status line shows the last.
        turns: Vec<TurnFigures>,
    },
    /// Stopped with a run while it was busy: the next use starts it again.
    Stopped,
    Failed(String),
}

/// How many turns' figures a ready status keeps.
pub const MAX_TURNS_KEPT: usize = 16;

/// How a turn went: tokens written, time in all, and the part spent reading the prompt (until
/// the first text).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TurnFigures {
    pub tokens: usize,
    pub ms: f64,
    pub read_ms: Option<f64>,
}

impl TurnFigures {
    /// Tokens per second while writing (after the prompt was read), when that is known.
    pub fn writing_rate(&self) -> Option<f64> {
        let writing = self.ms - self.read_ms.unwrap_or(0.0);
        mcp_flow_smollm_wire::tokens_per_second(self.tokens, writing)
    }

    pub fn describe(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let mut line = match (self.read_ms, zh) {
            (Some(read), false) => format!(
                "last turn: read the prompt in {} s, then wrote {} tokens",
                fixed(read / 1000.0, 1),
                self.tokens
            ),
            (Some(read), true) => format!(
                "上一轮：读取提示用时 {} 秒，然后写了 {} 个词元",
                fixed(read / 1000.0, 1),
                self.tokens
            ),
            (None, false) => format!(
                "last turn: {} tokens in {} s",
                self.tokens,
                fixed(self.ms / 1000.0, 1)
            ),
            (None, true) => format!(
                "上一轮：{} 秒写了 {} 个词元",
                fixed(self.ms / 1000.0, 1),
                self.tokens
            ),
        };
        if let Some(rate) = self.writing_rate() {
            line.push_str(&if zh {
                format!("（每秒 {} 个词元）", fixed(rate, 1))
            } else {
                format!(" ({} tokens/s)", fixed(rate, 1))
            });
        }
        line
    }
}

/// The end of the text a model is writing, to show on its diagram row as it grows: at most
/// `max_chars` characters on one line, "…" in front when cut.
pub fn stream_tail(text: &str, max_chars: usize) -> String {
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let count = line.chars().count();
    if count <= max_chars {
        return line;
    }
    let kept: String = line
        .chars()
        .skip(count - max_chars.saturating_sub(1))
        .collect();
    format!("…{kept}")
}

/// Megabytes with one decimal, as the settings say sizes.
pub fn megabytes(bytes: u64) -> String {
    format!("{} MB", fixed(bytes as f64 / 1_000_000.0, 1))
}

impl Status {
    /// How far along loading is (0…1), when there is a bar to show.
    pub fn fraction(&self) -> Option<f64> {
        match self {
            Self::Loading {
                done,
                total: Some(total),
                ..
            } if *total > 0 => Some((*done as f64 / *total as f64).clamp(0.0, 1.0)),
            _ => None,
        }
    }

    /// A turn finished: its figures join a ready status (the oldest dropped past
    /// [`MAX_TURNS_KEPT`]); any other status is left as it is.
    pub fn add_turn(&mut self, figures: TurnFigures) {
        if let Self::Ready { turns, .. } = self {
            if turns.len() == MAX_TURNS_KEPT {
                turns.remove(0);
            }
            turns.push(figures);
        }
    }

    /// The loaded model's facts, once ready.
    pub fn loaded(&self) -> Option<&Loaded> {
        match self {
            Self::Ready { loaded, .. } => Some(loaded),
            _ => None,
        }
    }

    /// Each turn's figures as a JSON array (`[{"tokens", "ms", "read_ms"}, …]`) for the status
    /// line's `data-turns`, which `bench/smollm-page.mjs` reads; `None` until ready.
    pub fn turns_json(&self) -> Option<String> {
        let Self::Ready { turns, .. } = self else {
            return None;
        };
        let turns: Vec<serde_json::Value> = turns
            .iter()
            .map(|t| serde_json::json!({"tokens": t.tokens, "ms": t.ms, "read_ms": t.read_ms}))
            .collect();
        Some(serde_json::Value::Array(turns).to_string())
    }

    pub fn is_busy(&self) -> bool {
        matches!(self, Self::Loading { .. })
    }

    /// One line for the settings, in `lang`.
    pub fn describe(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let pick = |en: String, cn: String| if zh { cn } else { en };
        match self {
            Self::NotLoaded => pick(
                format!(
                    "Not loaded. The first run downloads {} from this server once; the browser keeps it.",
                    megabytes(MODEL_BYTES)
                ),
                format!(
                    "未加载。第一次运行会从此服务器下载 {}（仅一次），浏览器会保存它。",
                    megabytes(MODEL_BYTES)
                ),
            ),
            Self::Loading { phase, done, total } => {
                let of = total
                    .map(|t| {
                        pick(
                            format!(" of {}", megabytes(t)),
                            format!(" / {}", megabytes(t)),
                        )
                    })
                    .unwrap_or_default();
                let done = megabytes(*done);
                match phase {
                    Phase::Download => pick(
                        format!("Downloading the model: {done}{of}"),
                        format!("正在下载模型：{done}{of}"),
                    ),
                    Phase::Cache => pick(
                        format!("Reading the model from the browser's cache: {done}{of}"),
                        format!("正在从浏览器缓存读取模型：{done}{of}"),
                    ),
                    Phase::Load => {
                        let size = total.map(megabytes).unwrap_or(done);
                        pick(
                            format!("Loading the weights ({size})…"),
                            format!("正在加载权重（{size}）…"),
                        )
                    }
                }
            }
            Self::Ready {
                loaded:
                    Loaded {
                        model,
                        quantization,
                        bytes,
                        from_cache,
                        cache_note,
                        load_ms,
                    },
                turns,
            } => {
                let named = match (model == MODEL_TITLE, zh) {
                    (true, _) => String::new(),
                    (false, false) => format!(" (the file calls itself \"{model}\")"),
                    (false, true) => format!("（文件自称“{model}”）"),
                };
                let size = megabytes(*bytes);
                let seconds = fixed(load_ms / 1000.0, 1);
                let mut line = match (*from_cache, zh) {
                    (true, false) => format!(
                        "Ready: {MODEL_TITLE} {quantization}{named}, {size} from the browser's cache, loaded in {seconds} s"
                    ),
                    (false, false) => format!(
                        "Ready: {MODEL_TITLE} {quantization}{named}, {size} downloaded, loaded in {seconds} s"
                    ),
                    (true, true) => format!(
                        "就绪：{MODEL_TITLE} {quantization}{named}，{size} 来自浏览器缓存，加载用时 {seconds} 秒"
                    ),
                    (false, true) => format!(
                        "就绪：{MODEL_TITLE} {quantization}{named}，已下载 {size}，加载用时 {seconds} 秒"
                    ),
                };
                if let Some(last) = turns.last() {
                    line.push_str(if zh { "；" } else { "; " });
                    line.push_str(&last.describe(lang));
                }
                if let Some(note) = cache_note {
                    line.push_str(&format!(" ({note})"));
                }
                line
            }
            Self::Stopped => pick(
                "Stopped with the run it was working for; the next run starts it again.".into(),
                "已随它服务的运行一起停止；下一次运行会重新启动它。".into(),
            ),
            Self::Failed(message) => pick(format!("Failed: {message}"), format!("失败：{message}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_shows_the_end_of_the_text_on_one_line() {
        assert_eq!(stream_tail("{\"tool_name\":", 40), "{\"tool_name\":");
        assert_eq!(
            stream_tail("The weather\nin Tokyo", 40),
            "The weather in Tokyo"
        );
        let long = "The weather in Tokyo is sunny with a light breeze from the east.";
        let tail = stream_tail(long, 20);
        assert_eq!(tail.chars().count(), 20);
        assert_eq!(tail, "…eeze from the east.");
        assert_eq!(stream_tail("東京の天気は晴れです", 5), "…晴れです");
        assert_eq!(stream_tail("", 5), "");
    }

    #[test]
    fn the_first_line_says_what_a_first_run_downloads() {
        assert!(Status::NotLoaded.describe(Lang::En).contains("144.8 MB"));
    }

    #[test]
    fn loading_shows_progress_against_the_total() {
        let s = Status::Loading {
            phase: Phase::Download,
            done: 72_405_520,
            total: Some(144_811_040),
        };
        assert_eq!(s.fraction(), Some(0.5));
        assert_eq!(
            s.describe(Lang::En),
            "Downloading the model: 72.4 MB of 144.8 MB"
        );
        assert_eq!(s.describe(Lang::Zh), "正在下载模型：72.4 MB / 144.8 MB");
        assert!(s.is_busy());
        let unknown = Status::Loading {
            phase: Phase::Cache,
            done: 5,
            total: None,
        };
        assert_eq!(unknown.fraction(), None);
    }

    #[test]
    fn ready_says_where_the_file_came_from_and_the_rate() {
        let s = Status::Ready {
            loaded: Loaded {
                model: "Smollm2 135M 8k Lc100K Mix1 Ep2".into(),
                quantization: "Q8_0".into(),
                bytes: 144_811_040,
                from_cache: true,
                cache_note: None,
                load_ms: 2500.0,
            },
            turns: vec![
                TurnFigures {
                    tokens: 9,
                    ms: 800.0,
                    read_ms: None,
                },
                TurnFigures {
                    tokens: 20,
                    ms: 3000.0,
                    read_ms: Some(1000.0),
                },
            ],
        };
        assert_eq!(
            s.describe(Lang::En),
            "Ready: SmolLM2-135M-Instruct Q8_0 (the file calls itself \"Smollm2 135M 8k Lc100K Mix1 Ep2\"), 144.8 MB from the browser's cache, loaded in 2.5 s; last turn: read the prompt in 1.0 s, then wrote 20 tokens (10.0 tokens/s)"
        );
        let unsplit = TurnFigures {
            tokens: 6,
            ms: 2000.0,
            read_ms: None,
        };
        assert_eq!(
            unsplit.describe(Lang::En),
            "last turn: 6 tokens in 2.0 s (3.0 tokens/s)"
        );
        assert_eq!(
            s.describe(Lang::Zh),
            "就绪：SmolLM2-135M-Instruct Q8_0（文件自称“Smollm2 135M 8k Lc100K Mix1 Ep2”），144.8 MB 来自浏览器缓存，加载用时 2.5 秒；上一轮：读取提示用时 1.0 秒，然后写了 20 个词元（每秒 10.0 个词元）"
        );
    }

    fn ready(turns: Vec<TurnFigures>) -> Status {
        Status::Ready {
            loaded: Loaded {
                model: MODEL_TITLE.into(),
                quantization: "Q8_0".into(),
                bytes: 1,
                from_cache: false,
                cache_note: None,
                load_ms: 1200.0,
            },
            turns,
        }
    }

    #[test]
    fn a_ready_model_keeps_each_turns_figures_for_the_page_to_show() {
        let turn = |tokens| TurnFigures {
            tokens,
            ms: 500.0,
            read_ms: Some(100.0),
        };
        let mut s = ready(Vec::new());
        assert_eq!(s.turns_json().as_deref(), Some("[]"));
        s.add_turn(turn(7));
        s.add_turn(turn(12));
        let json: serde_json::Value =
            serde_json::from_str(&s.turns_json().unwrap_or_default()).unwrap_or_default();
        assert_eq!(
            json,
            serde_json::json!([
                {"tokens": 7, "ms": 500.0, "read_ms": 100.0},
                {"tokens": 12, "ms": 500.0, "read_ms": 100.0}
            ])
        );
        assert_eq!(s.loaded().map(|l| l.load_ms), Some(1200.0));
        for n in 0..MAX_TURNS_KEPT {
            s.add_turn(turn(100 + n));
        }
        let Status::Ready { turns, .. } = &s else {
            panic!("still ready");
        };
        assert_eq!(turns.len(), MAX_TURNS_KEPT);
        assert_eq!(turns[0].tokens, 100, "the oldest went first");
        let mut loading = Status::NotLoaded;
        loading.add_turn(turn(1));
        assert_eq!(loading, Status::NotLoaded);
        assert_eq!(loading.turns_json(), None);
    }
}
