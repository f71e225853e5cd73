//! What the page shows of the run: its era, and which diagrams' rows are drawn.

use leptos::prelude::*;

use super::Controller;
use crate::diagram::{Row, diagrams_for};
use crate::mcp::era::Era;
use crate::record::run::RowStatus;

impl Controller {
    /// Whether the run shown has browsed the server (the browse diagram is drawn then).
    pub fn browsed(&self) -> bool {
        self.run.with(|r| {
            r.rows
                .iter()
                .any(|x| x.id.is_browse() && x.status != RowStatus::Pending)
        })
    }

    /// Whether the run shown hosted an app (the App diagram is drawn then).
    pub fn hosted_app(&self) -> bool {
        self.run.with(|r| {
            r.rows
                .iter()
                .any(|x| x.id.is_app() && x.status != RowStatus::Pending)
        })
    }

    /// The era shown: the run's once known, else the setting's (modern while `auto` probes).
    pub fn shown_era(&self) -> Era {
        self.run
            .with(|r| r.era.as_ref().map(|d| d.era))
            .or(self.settings.era.get().forced())
            .unwrap_or(Era::Modern)
    }

    /// Whether the server asked for authorization in the run shown (the Authorization diagram
    /// is drawn then).
    pub fn authorized(&self) -> bool {
        self.run.with(|r| {
            r.rows
                .iter()
                .any(|x| x.id.is_auth() && x.status != RowStatus::Pending)
        })
    }

    /// The rows of the diagrams shown (the Authorization diagram's first, when it is drawn;
    /// then the browse and App diagrams', when they are).
    pub fn shown_rows(&self) -> Vec<Row> {
        let auth = Row::ALL
            .iter()
            .copied()
            .filter(|r| r.is_auth() && self.authorized());
        let browsed = self.browsed();
        let browse = crate::diagram::browse_rows().filter(move |_| browsed);
        let hosted = self.hosted_app();
        let app = crate::diagram::app_rows().filter(move |_| hosted);
        auth.chain(diagrams_for(self.shown_era()).iter().flat_map(|d| d.rows()))
            .chain(browse)
            .chain(app)
            .collect()
    }
}
