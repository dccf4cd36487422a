//! Every file the tool opens or writes goes through here: one guarded open for reading (a
//! regular file, never a FIFO, socket or device, under a size cap), file identities (device and
//! inode) so that links to the same file are recognised, and an atomic writer (a temporary file
//! in the target's folder, renamed over it at the end).
//!
//! The guarded open is race-free: the path is opened without blocking (`O_NONBLOCK`, so a FIFO
//! swapped in after a `stat` cannot hang the run) and the type is read from the open handle.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// [`open_regular`] for a checked input: a special file's error says how to read it instead.
pub fn open_input(path: &Path) -> io::Result<(File, Metadata)> {
    open_regular(path).map_err(|e| {
        if e.kind() == io::ErrorKind::InvalidInput {
            io::Error::new(
                e.kind(),
                format!("{e}; pipe it to `sitemap-lint check -` instead"),
            )
        } else {
            e
        }
    })
}

/// A short, stable description of an I/O error for messages.
pub fn describe_io(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// The largest configuration file read (1 MiB): a `sitemap-lint.toml` is a few hundred bytes;
/// a link to `/proc/self/pagemap` or a huge file must not fill memory.
pub const MAX_CONFIG_SIZE: u64 = 1 << 20;

/// Opens `path` for reading when it is a regular file (following symlinks). A FIFO, socket,
/// device or directory is refused with an error that says what it is, without blocking (of
/// kind `InvalidInput` for the special files).
pub fn open_regular(path: &Path) -> io::Result<(File, Metadata)> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for reading blocks until a writer appears; non-blocking, it returns at
        // once and the type test below refuses it. Regular files ignore the flag.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::other("is a directory"));
    }
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, socket or device)",
        ));
    }
    Ok((file, meta))
}

/// Reads the regular file at `path` as UTF-8 text of at most `cap` bytes (the configuration
/// file). A larger file is an error naming the cap; so is text that is not UTF-8.
pub fn read_text_capped(path: &Path, cap: u64) -> io::Result<String> {
    let (file, _) = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::other(format!(
            "it is larger than {} (the limit for this file)",
            describe_size(cap)
        )));
    }
    String::from_utf8(bytes).map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8"))
}

fn describe_size(bytes: u64) -> String {
    if bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// What makes two paths the same file: device and inode on Unix (so hard links, symlinks and
/// different spellings of one path all compare equal); the canonical path elsewhere.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FileId(Id);

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Id {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

impl FileId {
    /// The identity of the file `path` names (following symlinks), `None` when it does not exist.
    pub fn of(path: &Path) -> Option<FileId> {
        let meta = std::fs::metadata(path).ok()?;
        FileId::from_meta(path, &meta)
    }

    /// The identity of standard input, when it is a file (`check - < s.xml`).
    pub fn of_stdin() -> Option<FileId> {
        #[cfg(unix)]
        {
            FileId::of(Path::new("/dev/stdin"))
        }
        #[cfg(not(unix))]
        {
            None
        }
    }

    // `path` is unused on Unix, `meta` elsewhere.
    #[allow(unused_variables)]
    fn from_meta(path: &Path, meta: &Metadata) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileId(Id::Inode(meta.dev(), meta.ino())))
        }
        #[cfg(not(unix))]
        {
            std::fs::canonicalize(path)
                .ok()
                .map(|p| FileId(Id::Path(p)))
        }
    }
}

/// A file written in full or not at all: the content goes to a new temporary file beside the
/// target, which [`AtomicFile::commit`] renames over the target. Dropped without a commit (an
/// error, a panic), the temporary file is removed and the target is untouched. Two runs writing
/// the same target each write their own temporary file, so the target ends as one whole
/// report, never a mix. A symlink target is written through: the file it points to is replaced.
pub struct AtomicFile {
    file: Option<File>,
    temp: PathBuf,
    target: PathBuf,
}

impl AtomicFile {
    /// Creates the temporary file for `target` (in its folder, hidden, named after it and this
    /// process). Fails when the folder cannot be written or `target` is a folder.
    pub fn create(target: &Path) -> io::Result<AtomicFile> {
        let target = resolve_links(target);
        if target.is_dir() {
            return Err(io::Error::other("is a directory"));
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "output".into());
        let mut attempt = 0u32;
        loop {
            let temp = dir.join(format!(
                ".{name}.sitemap-lint-{}-{attempt}.tmp",
                std::process::id()
            ));
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    return Ok(AtomicFile {
                        file: Some(file),
                        temp,
                        target,
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => {
                    attempt += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The file the content is renamed to (symlinks resolved).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes the content to disk and renames it over the target, keeping the permissions the
    /// target had (a new file gets the usual ones).
    pub fn commit(mut self) -> io::Result<()> {
        let file = self.file.take().ok_or_else(|| io::Error::other("closed"))?;
        if let Ok(meta) = std::fs::metadata(&self.target) {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.temp, &self.target)?;
        // Renamed: nothing left for `drop` to remove.
        self.temp = PathBuf::new();
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(io::Error::other("closed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        self.file = None;
        if !self.temp.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// `path` with symlinks followed (at most 40, as the kernel does), so that writing replaces
/// the file a link points to rather than the link. A dangling link resolves to where it points.
fn resolve_links(path: &Path) -> PathBuf {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => match std::fs::read_link(&at) {
                Ok(next) => {
                    at = match at.parent() {
                        Some(dir) if next.is_relative() => dir.join(next),
                        _ => next,
                    };
                }
                Err(_) => break,
            },
            _ => break,
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sitemap-lint-files-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn only_regular_files_open() {
        let dir = temp_dir("open");
        let file = dir.join("a.xml");
        std::fs::write(&file, "x").unwrap();
        assert!(open_regular(&file).is_ok());
        let err = open_regular(&dir).unwrap_err().to_string();
        assert!(err.contains("directory"), "{err}");
        #[cfg(unix)]
        {
            let err = open_regular(Path::new("/dev/zero"))
                .unwrap_err()
                .to_string();
            assert!(err.contains("not a regular file"), "{err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn text_over_the_cap_is_refused() {
        let dir = temp_dir("cap");
        let file = dir.join("c.toml");
        std::fs::write(&file, "a".repeat(11)).unwrap();
        assert_eq!(read_text_capped(&file, 11).unwrap().len(), 11);
        let err = read_text_capped(&file, 10).unwrap_err().to_string();
        assert!(err.contains("larger than 10 bytes"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn links_share_an_identity() {
        let dir = temp_dir("id");
        let file = dir.join("a.xml");
        std::fs::write(&file, "x").unwrap();
        let other = dir.join("b.xml");
        std::fs::write(&other, "x").unwrap();
        assert_eq!(FileId::of(&file), FileId::of(&dir.join(".").join("a.xml")));
        assert_ne!(FileId::of(&file), FileId::of(&other));
        #[cfg(unix)]
        {
            std::fs::hard_link(&file, dir.join("hard.xml")).unwrap();
            std::os::unix::fs::symlink(&file, dir.join("soft.xml")).unwrap();
            assert_eq!(FileId::of(&file), FileId::of(&dir.join("hard.xml")));
            assert_eq!(FileId::of(&file), FileId::of(&dir.join("soft.xml")));
        }
        assert_eq!(FileId::of(&dir.join("missing")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_atomic_file_replaces_the_target_only_on_commit() {
        let dir = temp_dir("atomic");
        let target = dir.join("report.txt");
        std::fs::write(&target, "old").unwrap();
        {
            let mut f = AtomicFile::create(&target).unwrap();
            f.write_all(b"half").unwrap();
            // Dropped without commit: the old content stays, no temporary file is left.
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        let mut f = AtomicFile::create(&target).unwrap();
        f.write_all(b"new").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        #[cfg(unix)]
        {
            let link = dir.join("link.txt");
            std::os::unix::fs::symlink("report.txt", &link).unwrap();
            let mut f = AtomicFile::create(&link).unwrap();
            f.write_all(b"through").unwrap();
            f.commit().unwrap();
            assert!(std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink());
            assert_eq!(std::fs::read_to_string(&target).unwrap(), "through");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
