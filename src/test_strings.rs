//! Exhaustive test inputs: every string of a few pieces, for comparing a fast path with the general one.

/// Every concatenation of at most `max` pieces of `alphabet`, the empty string included.
pub fn all_strings(alphabet: &[&str], max: usize) -> Vec<String> {
    let mut values = vec![String::new()];
    for _ in 0..max {
        let longer: Vec<String> = values
            .iter()
            .flat_map(|v| alphabet.iter().map(move |c| format!("{v}{c}")))
            .collect();
        values.extend(longer);
    }
    values
}
