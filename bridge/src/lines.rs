//! Reading newline-delimited messages with a length limit, so a child that writes an endless
//! line cannot exhaust the bridge's memory.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One line read from a child's output, without its line break (`\n` or `\r\n`).
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The bytes of a line within the limit.
    Full(Vec<u8>),
    /// A line longer than the limit: its bytes were skipped, this is how many there were.
    TooLong(usize),
}

/// Reads the next line; `None` at end of input. A last line without a line break is returned
/// as a line.
pub async fn next_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut total = 0usize;
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            if total == 0 && line.is_empty() {
                return Ok(None);
            }
            return Ok(Some(finish(line, total, too_long)));
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        total += chunk.len();
        if !too_long {
            if line.len() + chunk.len() > max {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let consumed = newline.map_or(available.len(), |at| at + 1);
        reader.consume(consumed);
        if newline.is_some() {
            return Ok(Some(finish(line, total, too_long)));
        }
    }
}

fn finish(mut line: Vec<u8>, total: usize, too_long: bool) -> Line {
    if too_long {
        return Line::TooLong(total);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Line::Full(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::BufReader;

    async fn all(input: &[u8], max: usize, buffer: usize) -> Vec<Line> {
        let mut reader = BufReader::with_capacity(buffer, input);
        let mut lines = Vec::new();
        while let Some(line) = next_line(&mut reader, max).await.expect("read") {
            lines.push(line);
        }
        lines
    }

    #[tokio::test]
    async fn splits_on_line_breaks_across_buffer_boundaries() {
        let input = b"{\"a\":1}\r\n{\"b\":2}\n\nlast";
        for buffer in [1, 3, 64] {
            assert_eq!(
                all(input, 100, buffer).await,
                vec![
                    Line::Full(b"{\"a\":1}".to_vec()),
                    Line::Full(b"{\"b\":2}".to_vec()),
                    Line::Full(Vec::new()),
                    Line::Full(b"last".to_vec()),
                ]
            );
        }
    }

    #[tokio::test]
    async fn skips_a_line_over_the_limit_and_goes_on() {
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\nok\n");
        assert_eq!(
            all(&input, 10, 8).await,
            vec![Line::TooLong(50), Line::Full(b"ok".to_vec())]
        );
    }
}
