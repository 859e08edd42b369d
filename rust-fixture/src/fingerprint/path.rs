use std::fmt::Write;

/// One step of a JSON path. Paths are only read when a value is refused, so the walks keep the steps of the branch
/// they are in and spell a path out only then.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Segment<'a> {
    Member(&'a str),
    Item(usize),
}

/// `.key` for members, `[i]` for items, after `base`.
pub(crate) fn spell<'a>(base: &str, segments: impl IntoIterator<Item = Segment<'a>>) -> String {
    let mut path = String::from(base);
    for segment in segments {
        match segment {
            Segment::Member(key) => push_member(&mut path, key),
            Segment::Item(index) => {
                let _ = write!(path, "[{index}]");
            }
        }
    }
    path
}

/// `.key` as an error path shows it: C0 controls escaped as `\uXXXX` (a `String` key holds no lone surrogate).
pub(crate) fn push_member(path: &mut String, key: &str) {
    path.push('.');
    for c in key.chars() {
        if c < ' ' {
            let _ = write!(path, "\\u{:04x}", u32::from(c));
        } else {
            path.push(c);
        }
    }
}
