//! Every thread of the checker, and every primitive that makes threads wait for each other:
//! nowhere else in `src/` starts a thread or waits on one (`tests/layering.rs` holds that).
//!
//! - [`ordered`]: the files of a run, checked on `--jobs` threads and handed to the renderer in
//!   input order, with the results waiting bounded in number and in bytes (back-pressure);
//! - [`Permits`]: at most so many large inputs read and checked at once;
//! - [`in_order`]: the same ordered map for work that must not hide a panic (the engine's
//!   batches of entries of a large document that could not be split);
//! - [`in_turns`]: the pieces of a split file, each parsed and checked on any thread, then handed
//!   in document order to the one walk that needs them in order (the collectors);
//! - [`all`]: a parallel `all` over a few items (reading a large file in parts, parsing the
//!   pieces of a split file up front);
//! - [`beside`]: a few items mapped in parallel beside other work on the calling thread (the
//!   parts of the collectors' end of file, see `rule::Collector::finish_parts`);
//! - [`cores`]: how many threads the machine runs at once.
//!
//! This module imports nothing else of the crate, so any layer may use it.
//!
//! ## Why not rayon
//!
//! Issue 17 asked for rayon plus a channel for the ordered output, unless a measurement showed
//! it loses. Measured: [`ordered`] as here against a rayon 1.10 version (a pool of `--jobs`
//! threads, each file a task spawned within the same window and byte bound, results sent
//! through an `mpsc` channel to the calling thread, which puts them in order), release builds,
//! `check -j 2 target/bench/small-1000` (1,000 files), 9 alternating runs each on the shared
//! 2-core machine at a load average of 14-19: wall 3,342 ms (hand-written) against 3,294 ms
//! (rayon), CPU 933 against 952 ms (medians). At that load the two cannot be told apart: rayon
//! does not win, and it would add two crates and a pool per run, so the hand-written scheduler
//! stays (it also lets the calling thread check files between renderings, where rayon's caller
//! only waits on the channel). To measure again on a quiet machine: the rayon version is ~60
//! lines (`pool.in_place_scope`, `scope.spawn` per file, `rx.recv()` and a `BTreeMap` for the
//! order).

use std::collections::BTreeMap;
use std::io;
use std::num::NonZeroUsize;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

/// Stack size of the worker threads (the main thread's usual 8 MiB, not the 2 MiB default of
/// spawned threads).
pub const WORKER_STACK: usize = 8 * 1024 * 1024;

/// How many bytes the results waiting to be consumed may weigh before the threads stop taking
/// more work (see [`ordered`]).
pub const HELD_WEIGHT: usize = 32 << 20;

/// The threads the machine runs at once (1 when that cannot be told).
pub fn cores() -> usize {
    thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Shared between the calling thread and the helpers of [`schedule`].
struct Schedule<T> {
    next_take: usize,
    /// The index `consume` gets next.
    next_done: usize,
    /// Results not yet consumed, by index, with their weights.
    ready: BTreeMap<usize, (T, usize)>,
    /// The sum of the weights in `ready`.
    held: usize,
    stop: bool,
    /// A helper died outside `work` (a bug): what it took will never come.
    broken: bool,
    /// Whether the calling thread sleeps until `next_done` is ready, and how many helpers sleep
    /// until the window moves: a wake-up costs a system call, so only sleepers get one.
    caller_waits: bool,
    helpers_waiting: usize,
}

/// Runs `work(i)` for `i` in `0..n` on `jobs` threads (the calling one and `jobs - 1` helpers)
/// and hands each result to `consume`, on the calling thread, in index order.
///
/// An index is taken only while fewer than `32 × jobs` are taken ahead of the one `consume`
/// waits for and the results waiting weigh less than [`HELD_WEIGHT`] (`weight` gives a result's
/// bytes): what waits is bounded in number and in bytes, however many inputs there are (at
/// most [`HELD_WEIGHT`] plus what the threads were working on when it was reached), and a
/// thread that runs ahead (its core is less busy) does not wait for every file of the other.
/// The calling thread consumes what is ready between its own items, so no thread is woken per
/// item (on a virtual machine a wake-up costs tens of microseconds). When `consume` fails (a
/// closed pipe), the helpers stop and the error is returned. A panic in `work` is caught and
/// becomes an error result.
pub fn ordered<T: Send>(
    n: usize,
    jobs: usize,
    work: impl Fn(usize) -> io::Result<T> + Sync,
    weight: impl Fn(&io::Result<T>) -> usize + Sync,
    consume: impl FnMut(usize, io::Result<T>) -> io::Result<()>,
) -> io::Result<()> {
    let run = |(): &mut (), i: usize| {
        catch_unwind(AssertUnwindSafe(|| work(i))).unwrap_or_else(|_| {
            Err(io::Error::other(
                "internal error: sitemap-lint failed while reading this file",
            ))
        })
    };
    schedule(n, jobs, || (), run, weight, consume)
}

/// [`ordered`] for work that cannot fail: `consume` gets `work(local, i)` for `i` in `0..n` in
/// order, on the calling thread, while `jobs` threads (the calling one among them), each with
/// its own `local()` (made on the calling thread), work ahead, up to `32 × jobs` indices. A
/// panic in `work` stops the others and goes on unwinding on the calling thread.
pub fn in_order<T: Send, L: Send>(
    n: usize,
    jobs: usize,
    local: impl FnMut() -> L,
    work: impl Fn(&mut L, usize) -> T + Sync,
    mut consume: impl FnMut(T),
) {
    let mut panicked = None;
    let run = |l: &mut L, i: usize| catch_unwind(AssertUnwindSafe(|| work(l, i)));
    let done = schedule(
        n,
        jobs,
        local,
        run,
        |_| 0,
        |_, result| match result {
            Ok(value) => {
                consume(value);
                Ok(())
            }
            Err(panic) => {
                panicked = Some(panic);
                Err(io::Error::other("a worker panicked"))
            }
        },
    );
    if let Some(panic) = panicked {
        resume_unwind(panic);
    }
    if let Err(e) = done {
        // Only a helper that died outside `work` gets here, which `run` rules out.
        panic!("{e}");
    }
}

/// The scheduler of [`ordered`] and [`in_order`]; `run` does not panic. Each thread runs with
/// its own `local()`.
fn schedule<T: Send, L: Send>(
    n: usize,
    jobs: usize,
    mut local: impl FnMut() -> L,
    run: impl Fn(&mut L, usize) -> T + Sync,
    weight: impl Fn(&T) -> usize + Sync,
    mut consume: impl FnMut(usize, T) -> io::Result<()>,
) -> io::Result<()> {
    if n == 0 {
        return Ok(());
    }
    let jobs = jobs.clamp(1, n);
    let ahead = 32 * jobs;
    let may_take = |s: &Schedule<T>| {
        s.next_take < n && s.next_take < s.next_done + ahead && s.held < HELD_WEIGHT
    };
    let schedule = Mutex::new(Schedule {
        next_take: 0,
        next_done: 0,
        ready: BTreeMap::new(),
        held: 0,
        stop: false,
        broken: false,
        caller_waits: false,
        helpers_waiting: 0,
    });
    // Helpers wait on `moved` for the window to move; the calling thread waits on `arrived`.
    let (moved, arrived) = (Condvar::new(), Condvar::new());
    let run = |l: &mut L, i: usize| {
        let result = run(l, i);
        let w = weight(&result);
        (result, w)
    };
    let finished = |s: &mut Schedule<T>, i: usize, (result, w): (T, usize)| {
        s.held += w;
        s.ready.insert(i, (result, w));
    };

    thread::scope(|scope| {
        for _ in 1..jobs {
            let (schedule, moved, arrived, run, may_take, finished) =
                (&schedule, &moved, &arrived, &run, &may_take, &finished);
            let mut l = local();
            let helper = move || {
                // Tells the calling thread if this helper dies with an item taken.
                let guard = Departure { schedule, arrived };
                loop {
                    let i = {
                        let mut s = lock(schedule);
                        while !s.stop && s.next_take < n && !may_take(&s) {
                            s.helpers_waiting += 1;
                            s = moved.wait(s).unwrap_or_else(PoisonError::into_inner);
                            s.helpers_waiting -= 1;
                        }
                        if s.stop || s.next_take >= n {
                            break;
                        }
                        s.next_take += 1;
                        s.next_take - 1
                    };
                    let result = run(&mut l, i);
                    let mut s = lock(schedule);
                    finished(&mut s, i, result);
                    if i == s.next_done && s.caller_waits {
                        arrived.notify_one();
                    }
                }
                std::mem::forget(guard);
            };
            thread::Builder::new()
                .name("sitemap-lint-worker".into())
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, helper)?;
        }
        // Should `consume` panic, the helpers are stopped rather than left waiting.
        let stop_on_panic = StopHelpers {
            schedule: &schedule,
            moved: &moved,
        };
        let mut l = local();
        let mut s = lock(&schedule);
        let result = loop {
            let i = s.next_done;
            if let Some((outcome, w)) = s.ready.remove(&i) {
                s.held -= w;
                drop(s);
                let consumed = consume(i, outcome);
                s = lock(&schedule);
                if let Err(e) = consumed {
                    break Err(e);
                }
                s.next_done += 1;
                if s.helpers_waiting > 0 {
                    moved.notify_all();
                }
                if s.next_done == n {
                    break Ok(());
                }
            } else if s.broken {
                break Err(io::Error::other("a worker thread stopped unexpectedly"));
            } else if may_take(&s) || s.next_take == s.next_done {
                // (Nothing taken ahead: the one `consume` waits for is taken whatever it weighs.)
                let i = s.next_take;
                s.next_take += 1;
                drop(s);
                let outcome = run(&mut l, i);
                s = lock(&schedule);
                finished(&mut s, i, outcome);
            } else {
                s.caller_waits = true;
                s = arrived.wait(s).unwrap_or_else(PoisonError::into_inner);
                s.caller_waits = false;
            }
        };
        drop(s);
        drop(stop_on_panic);
        result
    })
}

/// Marks the schedule broken when a helper of [`schedule`] unwinds (it is forgotten on the
/// normal way out).
struct Departure<'a, T> {
    schedule: &'a Mutex<Schedule<T>>,
    arrived: &'a Condvar,
}

impl<T> Drop for Departure<'_, T> {
    fn drop(&mut self) {
        let mut s = lock(self.schedule);
        s.broken = true;
        drop(s);
        self.arrived.notify_one();
    }
}

/// Stops the helpers of [`schedule`] when the calling thread leaves it, normally or not.
struct StopHelpers<'a, T> {
    schedule: &'a Mutex<Schedule<T>>,
    moved: &'a Condvar,
}

impl<T> Drop for StopHelpers<'_, T> {
    fn drop(&mut self) {
        let mut s = lock(self.schedule);
        s.stop = true;
        s.ready.clear();
        s.held = 0;
        drop(s);
        self.moved.notify_all();
    }
}

/// At most `most` holders at once: [`Permits::take`] waits for a free permit.
pub struct Permits {
    taken: Mutex<usize>,
    freed: Condvar,
    most: usize,
}

/// A permit of [`Permits`], given back when dropped.
pub struct Permit<'a>(&'a Permits);

impl Permits {
    pub const fn new(most: usize) -> Permits {
        Permits {
            taken: Mutex::new(0),
            freed: Condvar::new(),
            most,
        }
    }

    /// Waits until fewer than `most` permits are out, and takes one.
    pub fn take(&self) -> Permit<'_> {
        let mut taken = lock(&self.taken);
        while *taken >= self.most.max(1) {
            taken = self
                .freed
                .wait(taken)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *taken += 1;
        Permit(self)
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut taken = lock(&self.0.taken);
        *taken -= 1;
        drop(taken);
        self.0.freed.notify_one();
    }
}

/// Whose turn it is in [`in_turns`], and the value the turns take in order.
struct TurnState<S> {
    /// The item whose turn comes next.
    next: usize,
    stop: bool,
    value: S,
}

/// The items of [`in_turns`], taken by any thread, and the value they get in turn.
pub struct Turns<S> {
    n: usize,
    state: Mutex<TurnState<S>>,
    /// Signalled when a turn ends (or the work stops).
    turned: Condvar,
    next_item: AtomicUsize,
    /// The item whose turn it is (`TurnState::next`, readable without the lock).
    turn: AtomicUsize,
    stopped: AtomicBool,
}

impl<S> Turns<S> {
    /// The next item nobody has taken, unless the work stopped.
    pub fn take(&self) -> Option<usize> {
        if self.stopped.load(Ordering::Relaxed) {
            return None;
        }
        let k = self.next_item.fetch_add(1, Ordering::Relaxed);
        (k < self.n).then_some(k)
    }

    /// Whether it is item `k`'s turn (a hint: it may come a moment later).
    pub fn is_turn(&self, k: usize) -> bool {
        self.turn.load(Ordering::Acquire) == k
    }

    /// Waits for item `k`'s turn, runs `f` on the value, and gives the turn to `k + 1`. False
    /// (and `f` not run) when the work stopped.
    pub fn in_turn(&self, k: usize, f: impl FnOnce(&mut S)) -> bool {
        let mut state = lock(&self.state);
        while state.next != k && !state.stop {
            state = self
                .turned
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if state.stop {
            return false;
        }
        f(&mut state.value);
        state.next += 1;
        self.turn.store(state.next, Ordering::Release);
        drop(state);
        self.turned.notify_all();
        true
    }

    /// Stops the work: no more items are taken, no turn comes, and [`in_turns`] gives `None`.
    pub fn stop(&self) {
        let mut state = lock(&self.state);
        state.stop = true;
        self.stopped.store(true, Ordering::Relaxed);
        drop(state);
        self.turned.notify_all();
    }
}

/// Runs `work` on `threads` threads (the calling one among them), each with its own `local()`
/// (made on the calling thread), over the items `0..n` of a [`Turns`]: a thread takes an item,
/// does what it can alone, then waits for the item's turn to update `value`
/// ([`Turns::in_turn`]). The value after every item's turn, or `None` when the work stopped.
/// A thread that panics stops the others, and the panic goes on unwinding on the calling thread.
///
/// A thread must never wait for a turn while it holds an item taken before the one it waits
/// for: then the turns always move.
pub fn in_turns<S: Send, L: Send>(
    n: usize,
    threads: usize,
    value: S,
    mut local: impl FnMut() -> L,
    work: impl Fn(L, &Turns<S>) + Sync,
) -> Option<S> {
    let turns = Turns {
        n,
        state: Mutex::new(TurnState {
            next: 0,
            stop: false,
            value,
        }),
        turned: Condvar::new(),
        next_item: AtomicUsize::new(0),
        turn: AtomicUsize::new(0),
        stopped: AtomicBool::new(false),
    };
    let run = |l: L| {
        let _stop = StopOnPanic(&turns);
        work(l, &turns);
    };
    let threads = threads.clamp(1, n.max(1));
    if threads == 1 {
        run(local());
    } else {
        thread::scope(|s| {
            for _ in 1..threads {
                let (l, run) = (local(), &run);
                s.spawn(move || run(l));
            }
            run(local());
        });
    }
    let state = turns.state.into_inner().ok()?;
    (!state.stop && state.next == n).then_some(state.value)
}

/// Stops the other threads of [`in_turns`] when this one panics (they would wait for its turn).
struct StopOnPanic<'a, S>(&'a Turns<S>);

impl<S> Drop for StopOnPanic<'_, S> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.stop();
        }
    }
}

/// Runs `first` on the calling thread and `f` on every item, the items taken in turn by up to
/// `threads - 1` helpers and, once `first` returns, by the calling thread: the results of `f`
/// in the items' order, and `first`'s. With one thread, `first` and then the items in order. A
/// panic goes on unwinding on the calling thread once every thread has stopped.
pub fn beside<T: Send, R: Send, F>(
    items: Vec<T>,
    threads: usize,
    first: impl FnOnce() -> F,
    f: impl Fn(T) -> R + Sync,
) -> (Vec<R>, F) {
    let n = items.len();
    let threads = threads.clamp(1, n + 1);
    let items = Mutex::new(items.into_iter().enumerate());
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(n));
    let work = || loop {
        let Some((i, item)) = lock(&items).next() else {
            return;
        };
        let r = f(item);
        lock(&done).push((i, r));
    };
    let first = if threads == 1 {
        let out = first();
        work();
        out
    } else {
        thread::scope(|s| {
            for _ in 1..threads {
                s.spawn(work);
            }
            let out = first();
            work();
            out
        })
    };
    let mut done = done.into_inner().unwrap_or_else(PoisonError::into_inner);
    done.sort_unstable_by_key(|&(i, _)| i);
    (done.into_iter().map(|(_, r)| r).collect(), first)
}

/// Whether `f` holds for every item, run on up to `threads` threads (the calling one among
/// them) taking the items in turn. Stops at the first `false` (or panic, which counts as
/// `false`): the items not yet taken are skipped.
pub fn all<T: Send>(items: Vec<T>, threads: usize, f: impl Fn(T) -> bool + Sync) -> bool {
    let threads = threads.clamp(1, items.len().max(1));
    let items = Mutex::new(items.into_iter());
    let failed = AtomicBool::new(false);
    let work = || {
        while !failed.load(Ordering::Relaxed) {
            let Some(item) = lock(&items).next() else {
                return;
            };
            if !catch_unwind(AssertUnwindSafe(|| f(item))).unwrap_or(false) {
                failed.store(true, Ordering::Relaxed);
            }
        }
    };
    if threads == 1 {
        work();
    } else {
        thread::scope(|s| {
            for _ in 1..threads {
                s.spawn(work);
            }
            work();
        });
    }
    !failed.load(Ordering::Relaxed)
}

/// Politeness per host for the live check's requests (see `pipeline::fetch::Pace`): at most
/// `connections` requests to one origin at once, whatever they are for; the starts of rated
/// requests (the pages of `--check-urls`, through [`Rated`]) at least `1 / rps` seconds apart;
/// and none while the origin is paused by a `Retry-After`. Unrated requests (robots.txt,
/// sitemaps) go through the pace itself.
#[cfg(feature = "http")]
pub struct HostPace {
    connections: usize,
    /// The least time between two rated requests' starts to one origin.
    interval: Option<std::time::Duration>,
    hosts: Mutex<std::collections::HashMap<String, HostState>>,
    changed: Condvar,
}

#[cfg(feature = "http")]
#[derive(Default)]
struct HostState {
    in_flight: usize,
    /// The earliest time the next rated request may start.
    next_rated: Option<std::time::Instant>,
    /// No request starts before this (`Retry-After`).
    paused: Option<std::time::Instant>,
}

/// The rated side of a [`HostPace`]: page requests.
#[cfg(feature = "http")]
pub struct Rated<'a>(pub &'a HostPace);

#[cfg(feature = "http")]
impl HostPace {
    /// `rps`: rated requests per second per origin at most (`None`: no rate); `connections`: at
    /// most this many requests at once per origin.
    pub fn new(rps: Option<f64>, connections: usize) -> HostPace {
        HostPace {
            connections: connections.max(1),
            interval: rps
                .filter(|r| r.is_finite() && *r > 0.0)
                .map(|r| std::time::Duration::from_secs_f64(1.0 / r)),
            hosts: Mutex::new(std::collections::HashMap::new()),
            changed: Condvar::new(),
        }
    }

    pub fn enter_with(&self, origin: &str, rated: bool) {
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            let now = std::time::Instant::now();
            let state = hosts.entry(origin.to_owned()).or_default();
            let until =
                |t: Option<std::time::Instant>| t.and_then(|t| t.checked_duration_since(now));
            let wait = match (
                until(state.paused),
                rated.then(|| until(state.next_rated)).flatten(),
            ) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            if state.in_flight < self.connections && wait.is_none() {
                state.in_flight += 1;
                if let (true, Some(interval)) = (rated, self.interval) {
                    state.next_rated = Some(now + interval);
                }
                return;
            }
            hosts = match wait {
                Some(d) => {
                    self.changed
                        .wait_timeout(hosts, d)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
                None => self
                    .changed
                    .wait(hosts)
                    .unwrap_or_else(PoisonError::into_inner),
            };
        }
    }

    pub fn leave_origin(&self, origin: &str) {
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(state) = hosts.get_mut(origin) {
            state.in_flight = state.in_flight.saturating_sub(1);
        }
        drop(hosts);
        self.changed.notify_all();
    }

    pub fn pause_origin(&self, origin: &str, wait: std::time::Duration) {
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        let state = hosts.entry(origin.to_owned()).or_default();
        let until = std::time::Instant::now() + wait;
        state.paused = Some(state.paused.map_or(until, |t| t.max(until)));
        drop(hosts);
        self.changed.notify_all();
    }
}

/// Runs `work(i)` for `i` in `0..n` on up to `jobs` threads and returns the results in index
/// order: for the live check's page requests, which wait on the network, not on a core (the
/// results are small: findings about an answer, not file text). A panic in `work` leaves `None`
/// at its index.
pub fn map_all<T: Send>(n: usize, jobs: usize, work: impl Fn(usize) -> T + Sync) -> Vec<Option<T>> {
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = Mutex::new(&mut out);
    thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, n.max(1)) {
            let spawned = thread::Builder::new()
                .name("sitemap-lint-fetch".into())
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, || loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    if let Ok(r) = catch_unwind(AssertUnwindSafe(|| work(i))) {
                        results.lock().unwrap_or_else(PoisonError::into_inner)[i] = Some(r);
                    }
                });
            if spawned.is_err() {
                break;
            }
        }
    });
    // Threads that could not be spawned leave work undone: do it here.
    let done = next.load(std::sync::atomic::Ordering::Relaxed).min(n);
    for (i, slot) in out.iter_mut().enumerate().skip(done) {
        *slot = catch_unwind(AssertUnwindSafe(|| work(i))).ok();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Runs 200 items on `jobs` threads, each result weighing `weight`, with `consume_us` of work
    /// per consumed result; checks the order and returns the most results alive at once.
    fn peak_alive(jobs: usize, weight: usize, consume_us: u64) -> usize {
        let alive = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let mut seen = Vec::new();
        ordered(
            200,
            jobs,
            |i| {
                let now = alive.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(now, Ordering::SeqCst);
                // Later items finish first now and then, to exercise the re-ordering.
                std::thread::sleep(std::time::Duration::from_micros(
                    ((i * 7919) % 13) as u64 * 50,
                ));
                Ok(i)
            },
            |_| weight,
            |i, r| {
                assert_eq!(r.unwrap(), i);
                seen.push(i);
                std::thread::sleep(std::time::Duration::from_micros(consume_us));
                alive.fetch_sub(1, Ordering::SeqCst);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, (0..200).collect::<Vec<_>>());
        peak.load(Ordering::SeqCst)
    }

    #[test]
    fn results_come_in_order_with_a_bounded_number_alive() {
        for jobs in [1, 2, 4] {
            // Results that hold a lot of text: no more than 2 × jobs alive.
            let heavy = peak_alive(jobs, HELD_WEIGHT, 0);
            assert!(
                heavy <= 2 * jobs,
                "jobs {jobs}: {heavy} heavy results alive"
            );
            let heavy_slow = peak_alive(jobs, HELD_WEIGHT, 500);
            assert!(heavy_slow <= 2 * jobs, "jobs {jobs}: {heavy_slow}");
            // Light ones: up to 32 × jobs, and the helpers do run ahead of a slow consumer.
            let light = peak_alive(jobs, 1, 500);
            assert!(
                light <= 32 * jobs,
                "jobs {jobs}: {light} light results alive"
            );
            if jobs > 1 {
                assert!(
                    light > 2 * jobs,
                    "jobs {jobs}: helpers did not run ahead ({light})"
                );
            }
        }
    }

    /// Issue 22: results that finished but wait for an earlier, slow one are bounded by their
    /// bytes, not only by their number (before, `2 × jobs` of any size waited).
    #[test]
    fn results_waiting_are_bounded_by_bytes() {
        let jobs = 8;
        let w = HELD_WEIGHT / 4;
        let waiting = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        ordered(
            100,
            jobs,
            |i| {
                // The first result comes last: everything after it waits.
                if i == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                let now = waiting.fetch_add(w, Ordering::SeqCst) + w;
                peak.fetch_max(now, Ordering::SeqCst);
                Ok(i)
            },
            |_| w,
            |i, r| {
                assert_eq!(r.unwrap(), i);
                waiting.fetch_sub(w, Ordering::SeqCst);
                Ok(())
            },
        )
        .unwrap();
        let peak = peak.load(Ordering::SeqCst);
        // Taken only while less than HELD_WEIGHT waits; the other threads' items in flight then
        // come on top.
        assert!(
            peak <= HELD_WEIGHT + (jobs - 1) * w,
            "{} MiB waited",
            peak >> 20
        );
    }

    #[test]
    fn in_order_keeps_the_order_and_a_panic_goes_on() {
        let mut seen = Vec::new();
        in_order(500, 3, || (), |(), i| i * 2, |v| seen.push(v));
        assert_eq!(seen, (0..500).map(|i| i * 2).collect::<Vec<_>>());
        let r = catch_unwind(AssertUnwindSafe(|| {
            in_order(
                500,
                3,
                || (),
                |(), i| {
                    assert!(i != 7, "seven");
                    i
                },
                |_| {},
            )
        }));
        assert!(r.is_err());
    }

    #[test]
    fn beside_maps_in_order_while_the_caller_works_and_a_panic_goes_on() {
        for threads in [1, 2, 4] {
            let helped = AtomicUsize::new(0);
            let caller = thread::current().id();
            let (out, first) = beside(
                (0..50).collect(),
                threads,
                || {
                    // The items start before this ends, on the helpers (one thread: after it).
                    let start = std::time::Instant::now();
                    while threads > 1
                        && helped.load(Ordering::Relaxed) == 0
                        && start.elapsed().as_secs() < 10
                    {
                        thread::sleep(std::time::Duration::from_millis(1));
                    }
                    "first"
                },
                |i: usize| {
                    if thread::current().id() != caller {
                        helped.fetch_add(1, Ordering::Relaxed);
                    }
                    i * 3
                },
            );
            assert_eq!(first, "first");
            assert_eq!(out, (0..50).map(|i| i * 3).collect::<Vec<_>>());
            // One thread: all on the caller; more: the helpers took some while it waited.
            assert_eq!(helped.load(Ordering::Relaxed) > 0, threads > 1, "{threads}");
        }
        let (none, ()) = beside(Vec::<usize>::new(), 2, || (), |i| i);
        assert!(none.is_empty());
        let r = catch_unwind(AssertUnwindSafe(|| {
            beside(
                (0..20).collect(),
                2,
                || (),
                |i: usize| {
                    assert!(i != 7, "seven");
                },
            )
        }));
        assert!(r.is_err());
    }

    #[test]
    fn turns_come_in_order_and_a_stop_ends_them() {
        for threads in [1, 2, 4] {
            let order = in_turns(
                300,
                threads,
                Vec::new(),
                || (),
                |(), turns| {
                    while let Some(k) = turns.take() {
                        if !turns.in_turn(k, |v: &mut Vec<usize>| v.push(k)) {
                            return;
                        }
                    }
                },
            );
            assert_eq!(order, Some((0..300).collect()));
            let stopped = in_turns(
                300,
                threads,
                0,
                || (),
                |(), turns| {
                    while let Some(k) = turns.take() {
                        if k == 40 {
                            turns.stop();
                        }
                        if !turns.in_turn(k, |v| *v += 1) {
                            return;
                        }
                    }
                },
            );
            assert_eq!(stopped, None);
        }
        // A panic stops the others and reaches the caller.
        let r = catch_unwind(AssertUnwindSafe(|| {
            in_turns(
                100,
                2,
                (),
                || (),
                |(), turns| {
                    while let Some(k) = turns.take() {
                        assert!(k != 50, "fifty");
                        turns.in_turn(k, |_| {});
                    }
                },
            )
        }));
        assert!(r.is_err());
    }

    #[test]
    fn all_stops_at_the_first_failure_and_counts_a_panic_as_one() {
        let ran = AtomicUsize::new(0);
        assert!(all((0..100).collect(), 3, |i: usize| {
            ran.fetch_add(1, Ordering::SeqCst);
            i < 100
        }));
        assert_eq!(ran.load(Ordering::SeqCst), 100);
        assert!(!all((0..100).collect(), 1, |i: usize| i != 10));
        assert!(!all((0..100).collect(), 2, |i: usize| {
            assert!(i != 10, "ten");
            true
        }));
        assert!(all(Vec::<u8>::new(), 4, |_| false));
    }

    #[test]
    fn permits_bound_the_holders() {
        static TWO: Permits = Permits::new(2);
        let (now, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        all((0..16).collect(), 6, |_: usize| {
            let _p = TWO.take();
            let n = now.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(n, Ordering::SeqCst);
            std::thread::sleep(std::time::Duration::from_millis(2));
            now.fetch_sub(1, Ordering::SeqCst);
            true
        });
        assert!(most.load(Ordering::SeqCst) <= 2);
    }

    #[test]
    fn a_failing_consumer_stops_the_workers_and_a_panic_becomes_an_error() {
        // Heavy results: at most 2 × jobs taken ahead; light ones: at most 32 × jobs.
        for (weight, most) in [(HELD_WEIGHT, 20), (0, 6 + 32 * 2 + 2)] {
            let taken = AtomicUsize::new(0);
            let r = ordered(
                1000,
                2,
                |i| {
                    taken.fetch_add(1, Ordering::SeqCst);
                    if i == 1 {
                        panic!("boom");
                    }
                    Ok(i)
                },
                |_| weight,
                |i, r| {
                    if i == 1 {
                        assert!(r.is_err(), "the panic is an error result");
                    }
                    if i == 5 {
                        return Err(io::Error::from(io::ErrorKind::BrokenPipe));
                    }
                    Ok(())
                },
            );
            assert_eq!(r.unwrap_err().kind(), io::ErrorKind::BrokenPipe);
            let taken = taken.load(Ordering::SeqCst);
            assert!(taken < most, "workers stopped early: {taken} taken");
        }
    }
}
