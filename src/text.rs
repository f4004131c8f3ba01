//! The lines of a text file a user gives (a word list, a dice file): ended by LF, CRLF or a
//! lone CR, as the editors of every system write them.

/// The lines of `text`, without their ends. A text of `k` line ends has `k + 1` lines, the
/// last empty if the text ends with one.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n')
        .flat_map(|line| line.strip_suffix('\r').unwrap_or(line).split('\r'))
}

/// The line number, from 1, of the line the byte at `offset` of `text` is on.
pub fn line_at(text: &[u8], offset: usize) -> usize {
    let before = &text[..offset];
    let ends = before
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && text.get(i + 1) != Some(&b'\n')))
        .count();
    1 + ends
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_end_counts_once() {
        let text = "a\nb\r\nc\rd\r\r\ne";
        assert_eq!(
            lines(text).collect::<Vec<_>>(),
            ["a", "b", "c", "d", "", "e"]
        );
        assert_eq!(lines("a\n").collect::<Vec<_>>(), ["a", ""]);
        // The line each letter is on, as `lines` numbers them.
        for (offset, line) in [(0, 1), (2, 2), (5, 3), (7, 4), (11, 6)] {
            assert_eq!(line_at(text.as_bytes(), offset), line);
        }
        // A CR before the byte asked about is a line end only if no LF follows it.
        assert_eq!(line_at(b"a\r\nb", 2), 1);
        assert_eq!(line_at(b"a\r\nb", 3), 2);
        assert_eq!(line_at(b"a\rb", 2), 2);
    }
}
