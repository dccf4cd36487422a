//! The set's table of first listings: for every distinct URL of a run (by its 64-bit
//! fingerprint, [`crate::pipeline::url_key`]), the first file that lists it, in 8 bytes a slot.
//!
//! A run over an index of 1,000 children of 1,000 URLs holds a million fingerprints. A
//! `HashMap<u64, u32>` spends 17 bytes a bucket over a power-of-two number of buckets (2^21
//! for a million: 34 MiB), and while it grows by doubling the old and the new table are alive
//! together (51 MiB at the last step): that table alone was 5 times the memory of checking
//! one of the files (issue 20). Here a slot is one `u64`:
//!
//! ```text
//!  63      56 55          40 39                        0
//! | dist + 1 |  file number  | low 40 bits of the print  |
//! ```
//!
//! - The slot a print belongs in (its *home*) comes from its high bits, `(print × slots) >> 64`,
//!   so a table can have any number of slots: sized for the URLs expected at a load of 7/8,
//!   a million fingerprints take 9.1 MB.
//! - Collisions are resolved by Robin Hood linear probing: the entries of a run of slots are
//!   in the order of their homes, and each records its distance from home (`dist`, at most
//!   [`MAX_DIST`]), so an entry's home is known without its high bits, and a search stops at
//!   the first entry that is nearer its home than the search is. Two prints are taken for the
//!   same when their homes and low 40 bits agree: with `n` URLs, the chance that a run reports
//!   one false duplicate is about `n × 7/8 / 2^40` (10^-6 for a million URLs), against
//!   `n² / 2^65` for the whole fingerprint (3 × 10^-8).
//! - A table is never rehashed (the high bits it would need are not stored). When it is full
//!   (7/8 of its slots, or an entry would move further than [`MAX_DIST`] from home), the next
//!   one is opened, as large as all before it together; a search looks in each. Sized from a
//!   good guess ([`FirstListings::expect`]) there is one table, and there is never a copy.
//! - Files numbered 65,535 or more (a run of that many files) go to a `HashMap` with the whole
//!   fingerprint, searched after the tables.
//!
//! The tables are allocated zeroed (`calloc`: pages the run never writes are never resident).

use crate::pipeline::url_key::FingerprintMap;

/// Low bits of a print kept in a slot.
const REM_BITS: u32 = 40;
const REM_MASK: u64 = (1 << REM_BITS) - 1;
const FILE_SHIFT: u32 = REM_BITS;
/// File numbers below this fit a slot.
const NARROW_FILES: u32 = u16::MAX as u32;
const DIST_SHIFT: u32 = 56;
/// The farthest an entry may sit from its home (the field holds `dist + 1`, so that an occupied
/// slot is never 0).
const MAX_DIST: u64 = 254;
/// The smallest table opened.
const MIN_ROOM: usize = 1 << 10;

/// Fingerprint → the first file that listed it (see the module documentation).
#[derive(Default)]
pub struct FirstListings {
    tables: Vec<Table>,
    /// Prints first listed by files numbered [`NARROW_FILES`] or more.
    wide: FingerprintMap<u32>,
    /// How many prints the first table is to hold.
    room: usize,
}

impl FirstListings {
    /// Tells how many distinct prints the run expects in all, before the first is inserted (a
    /// guess: it sizes the first table, and it is never a limit). Later calls change nothing.
    pub fn expect(&mut self, prints: usize) {
        if self.tables.is_empty() {
            self.room = prints;
        }
    }

    /// Whether nothing was inserted yet.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty() && self.wide.is_empty()
    }

    /// The first file that listed `print`; when none did, `file` becomes its first (and is
    /// returned).
    pub fn first_or_insert(&mut self, print: u64, file: u32) -> u32 {
        // Where the print would go in the last table (the one inserted into), found by the
        // same search that looks for it there.
        let mut place = None;
        for t in &self.tables {
            match t.find(print) {
                Found::Listed(first) => return first,
                Found::Absent(at) => place = at,
            }
        }
        if let Some(&first) = self.wide.get(&print) {
            return first;
        }
        if file >= NARROW_FILES {
            self.wide.insert(print, file);
            return file;
        }
        let inserted = match self.tables.last_mut() {
            Some(t) => t.insert_at(place, print, file),
            None => false,
        };
        if !inserted {
            let before: usize = self.tables.iter().map(|t| t.len).sum();
            let room = if self.tables.is_empty() {
                self.room
            } else {
                before
            };
            let mut t = Table::with_room(room.max(MIN_ROOM));
            let placed = t.insert(print, file);
            // An empty table has room for one entry at distance 0.
            debug_assert!(placed);
            self.tables.push(t);
        }
        file
    }

    /// Bytes held by the tables.
    #[cfg(test)]
    fn table_bytes(&self) -> usize {
        self.tables.iter().map(|t| t.slots.len() * 8).sum()
    }
}

enum Found {
    Listed(u32),
    /// Not in the table: it would go at this slot, this far from its home (`None`: farther
    /// than any entry may be).
    Absent(Option<(usize, u64)>),
}

struct Table {
    slots: Vec<u64>,
    len: usize,
    /// The most entries before the table counts as full (7/8 of the slots).
    max: usize,
}

impl Table {
    fn with_room(room: usize) -> Table {
        let n = room.saturating_add(room / 7).saturating_add(1);
        Table {
            slots: vec![0; n],
            len: 0,
            max: n - n / 8,
        }
    }

    fn home(&self, print: u64) -> usize {
        // Lossless: the product's high word is below `slots.len()`.
        ((u128::from(print) * self.slots.len() as u128) >> 64) as usize
    }

    fn next(&self, p: usize) -> usize {
        if p + 1 == self.slots.len() {
            0
        } else {
            p + 1
        }
    }

    fn find(&self, print: u64) -> Found {
        let rem = print & REM_MASK;
        let mut p = self.home(print);
        let mut dist = 0u64;
        loop {
            let s = self.slots[p];
            if s == 0 {
                return Found::Absent(Some((p, dist)));
            }
            let d = (s >> DIST_SHIFT) - 1;
            if d < dist {
                // Robin Hood order: an entry from this home would sit before this one.
                return Found::Absent(Some((p, dist)));
            }
            if d == dist && s & REM_MASK == rem {
                return Found::Listed(((s >> FILE_SHIFT) & 0xffff) as u32);
            }
            if dist == MAX_DIST {
                return Found::Absent(None);
            }
            p = self.next(p);
            dist += 1;
        }
    }

    /// Inserts a print not in the table; false when the table is full for it.
    fn insert(&mut self, print: u64, file: u32) -> bool {
        match self.find(print) {
            Found::Absent(place) => self.insert_at(place, print, file),
            Found::Listed(_) => false,
        }
    }

    /// Inserts a print not in the table at `place`, where [`Table::find`] said it would go;
    /// false when the table is full for it.
    fn insert_at(&mut self, place: Option<(usize, u64)>, print: u64, file: u32) -> bool {
        let Some((at, dist)) = place.filter(|_| self.len < self.max) else {
            return false;
        };
        // The entries from `at` to the next empty slot each move one slot on: none may end
        // farther than MAX_DIST from its home. (The table is at most 7/8 full: there is an
        // empty slot.)
        let mut p = at;
        while self.slots[p] != 0 {
            if (self.slots[p] >> DIST_SHIFT) > MAX_DIST {
                return false;
            }
            p = self.next(p);
        }
        let mut carry =
            ((dist + 1) << DIST_SHIFT) | (u64::from(file) << FILE_SHIFT) | (print & REM_MASK);
        let mut p = at;
        loop {
            let was = std::mem::replace(&mut self.slots[p], carry);
            if was == 0 {
                break;
            }
            carry = was + (1 << DIST_SHIFT);
            p = self.next(p);
        }
        self.len += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A well-mixed print (the fingerprints end with a finalizer).
    fn mix(mut k: u64) -> u64 {
        k ^= k >> 33;
        k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
        k ^= k >> 33;
        k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        k ^ (k >> 33)
    }

    /// Against a `HashMap`: every print inserted once answers its first file after.
    fn agrees(expect: usize, files: u32, per_file: u64, repeat_every: u64) {
        let mut t = FirstListings::default();
        t.expect(expect);
        let mut model: HashMap<u64, u32> = HashMap::new();
        for f in 0..files {
            for k in 0..per_file {
                let id = u64::from(f) * per_file + k;
                // Every `repeat_every`-th URL repeats one of an earlier file (or of this one).
                let id = if repeat_every > 0 && id.is_multiple_of(repeat_every) {
                    id / 2
                } else {
                    id
                };
                let print = mix(id);
                let want = *model.entry(print).or_insert(f);
                assert_eq!(t.first_or_insert(print, f), want, "file {f}, url {k}");
            }
        }
        for (&print, &first) in &model {
            assert_eq!(t.first_or_insert(print, u32::MAX - 1), first);
        }
    }

    #[test]
    fn sized_right_one_table_of_nine_bytes_a_print() {
        let mut t = FirstListings::default();
        t.expect(1_000_000);
        for i in 0..1_000_000u64 {
            assert_eq!(
                t.first_or_insert(mix(i), (i / 1000) as u32),
                (i / 1000) as u32
            );
        }
        assert_eq!(t.tables.len(), 1);
        assert!(t.table_bytes() <= 9_200_000, "{}", t.table_bytes());
        for i in (0..1_000_000u64).step_by(997) {
            assert_eq!(t.first_or_insert(mix(i), 7), (i / 1000) as u32);
        }
    }

    #[test]
    fn a_guess_too_small_opens_more_tables_and_loses_nothing() {
        agrees(10, 300, 1000, 7);
        agrees(0, 50, 10, 3);
    }

    #[test]
    fn a_guess_too_large_is_only_a_guess() {
        agrees(1 << 20, 10, 100, 5);
    }

    #[test]
    fn files_beyond_the_narrow_numbers_keep_their_numbers() {
        let mut t = FirstListings::default();
        let big = NARROW_FILES + 5;
        assert_eq!(t.first_or_insert(mix(1), 3), 3);
        assert_eq!(t.first_or_insert(mix(2), big), big);
        assert_eq!(t.first_or_insert(mix(2), big + 1), big);
        assert_eq!(t.first_or_insert(mix(1), big + 1), 3);
        assert_eq!(
            t.first_or_insert(mix(3), NARROW_FILES - 1),
            NARROW_FILES - 1
        );
    }

    #[test]
    fn prints_crowding_one_home_fill_the_table_and_move_on() {
        // Prints whose high bits agree share a home: they pile up past MAX_DIST, and the
        // overflow goes to a new table rather than farther than a slot can say.
        let mut t = FirstListings::default();
        t.expect(100_000);
        let n = 600u64;
        for i in 0..n {
            assert_eq!(t.first_or_insert(i, 1), 1);
        }
        assert!(t.tables.len() > 1);
        for i in 0..n {
            assert_eq!(t.first_or_insert(i, 2), 1);
        }
    }

    #[test]
    fn print_zero_and_the_largest_print_are_prints_like_any() {
        let mut t = FirstListings::default();
        assert_eq!(t.first_or_insert(0, 4), 4);
        assert_eq!(t.first_or_insert(u64::MAX, 5), 5);
        assert_eq!(t.first_or_insert(0, 6), 4);
        assert_eq!(t.first_or_insert(u64::MAX, 6), 5);
    }
}
