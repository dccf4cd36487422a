//! The threads of the checker. Today this holds the ordered parallel map that checks the files
//! of a run ([`ordered`]); one large file's pieces are still parsed and checked by the engine's
//! own threads (`engine::check_split`, `split::parse_into`, `input::read_parallel`), which move
//! here next (issue 17: all threading in one executor).

use std::collections::BTreeMap;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, PoisonError};
use std::thread;

/// Stack size of the worker threads (the main thread's usual 8 MiB, not the 2 MiB default of
/// spawned threads).
pub const WORKER_STACK: usize = 8 * 1024 * 1024;

/// How much file text the results waiting to be rendered may hold before the threads stop
/// running ahead (see [`ordered`]).
pub const HELD_WEIGHT: usize = 32 << 20;

/// Shared between the calling thread and the helpers of [`ordered`].
struct Schedule<T> {
    next_take: usize,
    /// The index `consume` gets next.
    next_done: usize,
    /// Results not yet consumed, by index, with their weights.
    ready: BTreeMap<usize, (io::Result<T>, usize)>,
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
/// Up to `2 × jobs` indices are taken ahead of the one `consume` waits for, and up to `32 × jobs`
/// while the results waiting weigh less than [`HELD_WEIGHT`] (`weight` gives a result's bytes of
/// file text): results alive are bounded, however many inputs there are, and a thread that runs
/// ahead (its core is less busy) does not wait for every file of the other. The calling
/// thread consumes what is ready between its own items, so no thread is woken per item (on a
/// virtual machine a wake-up costs tens of microseconds). When `consume` fails (a closed pipe),
/// the helpers stop and the error is returned. A panic in `work` is caught and becomes an error
/// result.
pub fn ordered<T: Send>(
    n: usize,
    jobs: usize,
    work: impl Fn(usize) -> io::Result<T> + Sync,
    weight: impl Fn(&io::Result<T>) -> usize + Sync,
    mut consume: impl FnMut(usize, io::Result<T>) -> io::Result<()>,
) -> io::Result<()> {
    if n == 0 {
        return Ok(());
    }
    let jobs = jobs.clamp(1, n);
    let (short, long) = (2 * jobs, 32 * jobs);
    let may_take = |s: &Schedule<T>| {
        s.next_take < n
            && (s.next_take < s.next_done + short
                || (s.next_take < s.next_done + long && s.held < HELD_WEIGHT))
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
    let lock = || schedule.lock().unwrap_or_else(PoisonError::into_inner);
    let run = |i: usize| {
        let result = catch_unwind(AssertUnwindSafe(|| work(i))).unwrap_or_else(|_| {
            Err(io::Error::other(
                "internal error: sitemap-lint failed while reading this file",
            ))
        });
        let w = weight(&result);
        (result, w)
    };
    let finished = |s: &mut Schedule<T>, i: usize, (result, w): (io::Result<T>, usize)| {
        s.held += w;
        s.ready.insert(i, (result, w));
    };

    thread::scope(|scope| {
        for _ in 1..jobs {
            let (schedule, lock, moved, arrived, run, may_take, finished) = (
                &schedule, &lock, &moved, &arrived, &run, &may_take, &finished,
            );
            let helper = move || {
                // Tells the calling thread if this helper dies with an item taken.
                let guard = Departure { schedule, arrived };
                loop {
                    let i = {
                        let mut s = lock();
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
                    let result = run(i);
                    let mut s = lock();
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

        let mut s = lock();
        let result = loop {
            let i = s.next_done;
            if let Some((outcome, w)) = s.ready.remove(&i) {
                s.held -= w;
                drop(s);
                let consumed = consume(i, outcome);
                s = lock();
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
            } else if may_take(&s) {
                let i = s.next_take;
                s.next_take += 1;
                drop(s);
                let outcome = run(i);
                s = lock();
                finished(&mut s, i, outcome);
            } else {
                s.caller_waits = true;
                s = arrived.wait(s).unwrap_or_else(PoisonError::into_inner);
                s.caller_waits = false;
            }
        };
        s.stop = true;
        s.ready.clear();
        drop(s);
        moved.notify_all();
        result
    })
}

/// Marks the schedule broken when a helper of [`ordered`] unwinds (it is forgotten on the
/// normal way out).
struct Departure<'a, T> {
    schedule: &'a Mutex<Schedule<T>>,
    arrived: &'a Condvar,
}

impl<T> Drop for Departure<'_, T> {
    fn drop(&mut self) {
        let mut s = self.schedule.lock().unwrap_or_else(PoisonError::into_inner);
        s.broken = true;
        drop(s);
        self.arrived.notify_one();
    }
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

    fn enter_with(&self, origin: &str, rated: bool) {
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

    fn leave_origin(&self, origin: &str) {
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(state) = hosts.get_mut(origin) {
            state.in_flight = state.in_flight.saturating_sub(1);
        }
        drop(hosts);
        self.changed.notify_all();
    }

    fn pause_origin(&self, origin: &str, wait: std::time::Duration) {
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        let state = hosts.entry(origin.to_owned()).or_default();
        let until = std::time::Instant::now() + wait;
        state.paused = Some(state.paused.map_or(until, |t| t.max(until)));
        drop(hosts);
        self.changed.notify_all();
    }
}

#[cfg(feature = "http")]
impl crate::pipeline::fetch::Pace for HostPace {
    fn enter(&self, origin: &str) {
        self.enter_with(origin, false);
    }

    fn leave(&self, origin: &str) {
        self.leave_origin(origin);
    }

    fn pause(&self, origin: &str, wait: std::time::Duration) {
        self.pause_origin(origin, wait);
    }
}

#[cfg(feature = "http")]
impl crate::pipeline::fetch::Pace for Rated<'_> {
    fn enter(&self, origin: &str) {
        self.0.enter_with(origin, true);
    }

    fn leave(&self, origin: &str) {
        self.0.leave_origin(origin);
    }

    fn pause(&self, origin: &str, wait: std::time::Duration) {
        self.0.pause_origin(origin, wait);
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
