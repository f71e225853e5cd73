//! A server's tools changed during a run (`notifications/tools/list_changed`, heard on a stream
//! the client was reading): in 2025-11-25 the client lists them again before the model's next
//! turn, drawn on rows `d2-relist` and `d2-relist-result`, and the model gets the new list; in
//! 2026-07-28 the page's cached list is dropped, so the next run asks again.

use super::host::{Host, Stopped};
use crate::diagram::Row;
use crate::llm::Llm;
use crate::record::payload::{Payload, SkipReason};
use mcp_flow_client::era::Era;
use mcp_flow_client::http::Http;

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// Lists the tools again if the server said they changed since the last list; else the
    /// rows are skipped with why. A failed list fails its row like the first one.
    pub(super) async fn relist_if_changed(&self) -> Result<(), Stopped> {
        // Drawn only in 2025-11-25's diagram; in 2026-07-28 the cached list goes, so the next
        // run asks for the tools again.
        let changed = self.tools_changed.replace(false);
        if changed && self.client.era() == Era::Modern {
            self.memory.tools.forget(&self.client.transport.url);
        }
        if !changed || self.client.era() != Era::Legacy {
            self.skip(
                &[Row::Relist, Row::RelistResult],
                SkipReason::ToolsUnchanged,
            );
            return Ok(());
        }
        self.begin(Row::Relist).await;
        let list = match self.client.tool_list().await {
            Ok(list) => list,
            Err(e) => return Err(self.fail_pair((Row::Relist, None), Row::RelistResult, e)),
        };
        self.done(Row::Relist, None);
        self.begin(Row::RelistResult).await;
        let names = self.take_tools(&list);
        self.done(
            Row::RelistResult,
            Some(Payload::Tools {
                names,
                dropped: list.dropped.clone(),
                ttl_ms: list.ttl_ms,
            }),
        );
        Ok(())
    }
}
