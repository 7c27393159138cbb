//! The index of a BGZF output built while it is written, instead of a second pass that
//! inflates the output again: `.tbi` (or `.csi` for long contigs) for VCF, `.csi`
//! for BCF. noodles' multithreaded BGZF writer compresses blocks on other threads and does not
//! tell where each block lands, so [`Tap`] watches the compressed bytes on their way to the
//! file and records each block's offset and inflated size; a record's virtual positions follow
//! from its offsets in the uncompressed stream. The positions are the ones noodles' reader
//! reports (a record ending at a block's end ends at the next block's start), so the index
//! equals `noodles_vcf::fs::index` (VCF) or `noodles_bcf::fs::index` (BCF) of the file.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use noodles_bgzf::VirtualPosition;
use noodles_core::Position;
use noodles_csi::binning_index::index::reference_sequence::bin::Chunk;
use noodles_csi::binning_index::index::reference_sequence::index::BinnedIndex;
use noodles_csi::binning_index::Indexer as CsiIndexer;
use noodles_vcf as vcf;

/// A written BGZF block: its offset in the file, its length there and its inflated size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Block {
    at: u64,
    len: u64,
    size: u32,
}

/// Blocks as the tap sees them pass, taken by the indexer.
type Blocks = Arc<Mutex<Vec<Block>>>;

/// A writer that passes BGZF bytes through and notes each block (header `BSIZE`, trailer
/// `ISIZE`, RFC 1952 / SAM spec §4.1).
pub struct Tap<W> {
    inner: W,
    blocks: Blocks,
    /// Bytes written so far.
    at: u64,
    /// The current block's bytes seen so far (at most its header, then its trailer).
    cur: Vec<u8>,
    /// Where the current block starts, and its total size once its header is in.
    start: u64,
    len: Option<u64>,
}

impl<W: Write> Tap<W> {
    fn see(&mut self, mut buf: &[u8]) -> io::Result<()> {
        let bad = || io::Error::new(io::ErrorKind::InvalidData, "not a BGZF stream");
        while !buf.is_empty() {
            let seen = self.at - self.start;
            match self.len {
                None => {
                    let n = (18 - self.cur.len()).min(buf.len());
                    self.cur.extend_from_slice(&buf[..n]);
                    (buf, self.at) = (&buf[n..], self.at + n as u64);
                    if self.cur.len() == 18 {
                        if self.cur[..4] != [0x1f, 0x8b, 8, 4] || self.cur[12..14] != *b"BC" {
                            return Err(bad());
                        }
                        let bsize = u16::from_le_bytes([self.cur[16], self.cur[17]]);
                        self.len = Some(u64::from(bsize) + 1);
                        self.cur.clear();
                    }
                }
                Some(len) => {
                    if len < 26 {
                        return Err(bad());
                    }
                    // Skip to the 4-byte ISIZE at the block's end.
                    let skip = (len - 4).saturating_sub(seen).min(buf.len() as u64) as usize;
                    (buf, self.at) = (&buf[skip..], self.at + skip as u64);
                    let n = (len - (self.at - self.start)).min(buf.len() as u64) as usize;
                    self.cur.extend_from_slice(&buf[..n]);
                    (buf, self.at) = (&buf[n..], self.at + n as u64);
                    if self.at - self.start == len {
                        let size = u32::from_le_bytes([
                            self.cur[0],
                            self.cur[1],
                            self.cur[2],
                            self.cur[3],
                        ]);
                        let mut b = self.blocks.lock().map_err(|_| bad())?;
                        b.push(Block {
                            at: self.start,
                            len,
                            size,
                        });
                        (self.start, self.len) = (self.at, None);
                        self.cur.clear();
                    }
                }
            }
        }
        Ok(())
    }
}

impl<W: Write> Write for Tap<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.see(&buf[..n])?;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// What the records are indexed by.
enum Indexer {
    /// VCF text: tabix or CSI as `noodles_vcf::fs::index` picks, by contig name (the names in
    /// the order first seen).
    Vcf {
        indexer: vcf::index::Indexer,
        contigs: Vec<String>,
    },
    /// BCF: CSI (min shift 14, depth 5) by the header's contig index, as
    /// `noodles_bcf::fs::index`; `last` is the last record's index.
    Bcf {
        indexer: CsiIndexer<BinnedIndex>,
        ids: vcf::header::StringMaps,
        count: usize,
        last: Option<usize>,
    },
}

/// A built index.
#[derive(Debug, PartialEq)]
pub enum Built {
    /// Of a VCF output.
    Vcf(vcf::Index),
    /// Of a BCF output.
    Bcf(noodles_csi::Index),
}

/// A record waiting for the blocks that hold it: (contig, start, end, its uncompressed span).
struct Pending {
    contig: usize,
    start: Position,
    end: Position,
    from: u64,
    to: u64,
}

/// The index of one output, built as its records are written.
pub struct LiveIndex {
    indexer: Indexer,
    blocks: Blocks,
    /// Blocks taken from the tap and not yet passed: (block, its uncompressed start).
    known: VecDeque<(Block, u64)>,
    /// The uncompressed end of the known blocks, and the file offset after them.
    known_end: u64,
    next_at: u64,
    pending: VecDeque<Pending>,
    /// The first error (noodles' message), reported at the end.
    error: Option<String>,
    /// A BCF record's contig comes before the previous one's in the header: sorted by name
    /// groups, not in the header's order, which a CSI of BCF needs.
    out_of_order: bool,
}

impl LiveIndex {
    /// An index of VCF records under `header` (its contig lengths pick tabix or CSI, as in
    /// `noodles_vcf::fs::index`), and the tap to put between the BGZF writer and the file.
    pub fn new<W: Write>(header: &vcf::Header, file: W) -> Result<(LiveIndex, Tap<W>), String> {
        let mut longest = 0;
        for c in header.contigs().values() {
            match c.length() {
                Some(0) => return Err("invalid reference sequence length".into()),
                Some(n) => longest = longest.max(n),
                None => {}
            }
        }
        let mut builder = vcf::index::Indexer::builder();
        if let Some(p) = Position::new(longest) {
            builder = builder.set_max_position_hint(p);
        }
        let indexer = builder.build().map_err(|e| e.to_string())?;
        Ok(LiveIndex::tapping(
            Indexer::Vcf {
                indexer,
                contigs: Vec::new(),
            },
            file,
        ))
    }

    /// An index of BCF records written under `header` (the output's), and the tap.
    pub fn new_bcf<W: Write>(header: &vcf::Header, file: W) -> Result<(LiveIndex, Tap<W>), String> {
        let ids = vcf::header::StringMaps::try_from(header).map_err(|e| e.to_string())?;
        let indexer = Indexer::Bcf {
            indexer: CsiIndexer::default(),
            count: header.contigs().len(),
            ids,
            last: None,
        };
        Ok(LiveIndex::tapping(indexer, file))
    }

    fn tapping<W: Write>(indexer: Indexer, file: W) -> (LiveIndex, Tap<W>) {
        let blocks = Blocks::default();
        let tap = Tap {
            inner: file,
            blocks: blocks.clone(),
            at: 0,
            cur: Vec::with_capacity(18),
            start: 0,
            len: None,
        };
        let index = LiveIndex {
            indexer,
            blocks,
            known: VecDeque::new(),
            known_end: 0,
            next_at: 0,
            pending: VecDeque::new(),
            error: None,
            out_of_order: false,
        };
        (index, tap)
    }

    /// Adds the record at uncompressed bytes `from..to` on `contig`, `start..=end` (None: the
    /// record has no end the index can use).
    pub fn add(&mut self, contig: &str, start: u64, end: Option<u64>, from: u64, to: u64) {
        if self.error.is_some() || self.out_of_order {
            return;
        }
        let span = Position::new(start as usize).zip(end.and_then(|e| Position::new(e as usize)));
        let Some((start, end)) = span else {
            self.error = Some(format!("{contig}:{start}: missing position"));
            return;
        };
        let contig = match &mut self.indexer {
            Indexer::Vcf { contigs, .. } => {
                if contigs.last().is_none_or(|c| c != contig) {
                    contigs.push(contig.to_string());
                }
                contigs.len() - 1
            }
            Indexer::Bcf { ids, last, .. } => {
                let Some(id) = ids.contigs().get_index_of(contig) else {
                    self.error = Some(format!("{contig}: not a contig of the header"));
                    return;
                };
                if last.is_some_and(|l| id < l) {
                    self.out_of_order = true;
                    return;
                }
                *last = Some(id);
                id
            }
        };
        self.pending.push_back(Pending {
            contig,
            start,
            end,
            from,
            to,
        });
        self.resolve();
    }

    /// The virtual position of uncompressed offset `u` (at most `known_end`): in the block
    /// that holds it, or at the next block's start when it is where a block ends.
    fn virtual_position(&self, u: u64) -> Option<VirtualPosition> {
        let i = self
            .known
            .partition_point(|(b, s)| s + u64::from(b.size) <= u);
        let (at, within) = match self.known.get(i) {
            Some((b, s)) => (b.at, u - s),
            None => (self.next_at, 0),
        };
        VirtualPosition::try_from((at, u16::try_from(within).ok()?)).ok()
    }

    /// Passes the pending records whose blocks have been written to the indexer.
    fn resolve(&mut self) {
        if let Ok(mut b) = self.blocks.lock() {
            // An empty block (the end-of-file marker) holds nothing: the reader's position
            // after the data is the marker's own offset.
            for block in b.drain(..).filter(|b| b.size > 0) {
                self.known.push_back((block, self.known_end));
                self.known_end += u64::from(block.size);
                self.next_at = block.at + block.len;
            }
        }
        while let Some(p) = self.pending.front() {
            if p.to > self.known_end {
                break;
            }
            let chunk = self
                .virtual_position(p.from)
                .zip(self.virtual_position(p.to));
            let Some((from, to)) = chunk else {
                self.error = Some("a virtual position out of range".into());
                return;
            };
            let chunk = Chunk::new(from, to);
            let added = match &mut self.indexer {
                Indexer::Vcf { indexer, contigs } => indexer
                    .add_record(&contigs[p.contig], p.start, p.end, chunk)
                    .map_err(|e| e.to_string()),
                Indexer::Bcf { indexer, .. } => indexer
                    .add_record(Some((p.contig, p.start, p.end, true)), chunk)
                    .map_err(|e| e.to_string()),
            };
            if let Err(e) = added {
                self.error = Some(e);
                return;
            }
            // Later records start at or after this one's end: blocks before it are done with.
            let to = p.to;
            self.pending.pop_front();
            while self
                .known
                .front()
                .is_some_and(|(b, s)| s + u64::from(b.size) <= to)
            {
                self.known.pop_front();
            }
        }
    }

    /// The index, once the BGZF writer has finished (every block has passed the tap); None
    /// when BCF records are not in the header's contig order (no CSI can index them).
    pub fn finish(mut self) -> Result<Option<Built>, String> {
        if self.out_of_order {
            return Ok(None);
        }
        self.resolve();
        if self.error.is_none() && !self.pending.is_empty() {
            self.error = Some("records past the end of the written blocks".into());
        }
        if let Some(e) = self.error {
            return Err(e);
        }
        Ok(Some(match self.indexer {
            Indexer::Vcf { indexer, .. } => Built::Vcf(indexer.build()),
            Indexer::Bcf { indexer, count, .. } => Built::Bcf(indexer.build(count)),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{OutFormat, Output};
    use crate::text::Ends;

    /// Writes `lines` after `header` through the tap, indexing as `annotate` does, and returns
    /// the live index and noodles' second-pass index of the written file.
    fn both(header: &str, lines: &[String], name: &str) -> (vcf::Index, vcf::Index) {
        let path = std::env::temp_dir().join(format!("varcat-live-{}-{name}", std::process::id()));
        let h = vcf::header::Parser::default().parse(header).unwrap();
        let ends = Ends::new(h.clone());
        let file = std::fs::File::create(&path).unwrap();
        let (mut ix, tap) = LiveIndex::new(&h, file).unwrap();
        let mut out = Output::on(Box::new(tap), None, OutFormat::VcfGz, 3);
        out.write_all(header.as_bytes()).unwrap();
        let mut at = header.len() as u64;
        for l in lines {
            let cols: Vec<&str> = l.split('\t').collect();
            let pos = cols[1].parse().unwrap();
            let last = ends.last_of(l.as_bytes(), pos, cols[3].as_bytes(), cols[7].as_bytes());
            out.write_all(l.as_bytes()).unwrap();
            out.write_all(b"\n").unwrap();
            let to = at + l.len() as u64 + 1;
            ix.add(cols[0], pos, last, at, to);
            at = to;
        }
        out.finish().unwrap();
        let Some(Built::Vcf(live)) = ix.finish().unwrap() else {
            panic!("a VCF index")
        };
        let second = noodles_vcf::fs::index(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        (live, second)
    }

    #[test]
    fn live_index_equals_the_second_pass() {
        let header = "##fileformat=VCFv4.2\n##contig=<ID=1,length=249000000>\n\
            ##contig=<ID=2>\n##INFO=<ID=END,Number=1,Type=Integer,Description=\"end\">\n\
            #CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n";
        let mut lines = Vec::new();
        let mut at = header.len();
        // Contig 1 then 2; lines of varying length; two records padded to end exactly where a
        // BGZF block ends (noodles' blocks hold 65,536 − 18 − 8 − 15 = 65,495 bytes), and one
        // with an INFO END the index must use.
        for i in 0..40_000u64 {
            let chrom = if i < 25_000 { "1" } else { "2" };
            let info = match i {
                7 => "END=5000".to_string(),
                _ => format!("X={}", "y".repeat((i % 23) as usize)),
            };
            let mut l = format!("{chrom}\t{}\t.\tACG\tA\t.\t.\t{info}", 100 + i * 37);
            let block = 65_495;
            let next = (at / block + 1) * block;
            if i == 1_000 || i == 30_000 {
                let need = next - at - l.len() - 1;
                assert!(need < 70_000);
                l.push_str(&"z".repeat(need));
            }
            at += l.len() + 1;
            lines.push(l);
        }
        assert!(at > 20 * 65_495);
        let (live, second) = both(header, &lines, "many");
        assert!(matches!(live, vcf::Index::Tabix(_)));
        assert_eq!(live, second);

        // A short output: every record in the one block, the last chunk ends at the EOF block.
        let (live, second) = both(header, &lines[..3], "short");
        assert_eq!(live, second);
    }

    #[test]
    fn bcf_contigs_out_of_header_order_get_no_index() {
        let h = vcf::header::Parser::default()
            .parse(
                "##fileformat=VCFv4.2\n##contig=<ID=1>\n##contig=<ID=2>\n\
                 #CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n",
            )
            .unwrap();
        let (mut ix, _tap) = LiveIndex::new_bcf(&h, std::io::sink()).unwrap();
        ix.add("2", 5, Some(5), 0, 10);
        ix.add("1", 7, Some(7), 10, 20);
        assert_eq!(ix.finish(), Ok(None));
        let (mut ix, _tap) = LiveIndex::new_bcf(&h, std::io::sink()).unwrap();
        ix.add("chrX", 5, Some(5), 0, 10);
        assert!(ix
            .finish()
            .unwrap_err()
            .contains("chrX: not a contig of the header"));
    }

    #[test]
    fn missing_positions_are_refused() {
        let h = vcf::header::Parser::default()
            .parse("##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n")
            .unwrap();
        let (mut ix, _tap) = LiveIndex::new(&h, std::io::sink()).unwrap();
        ix.add("1", 0, Some(0), 0, 10);
        assert!(ix.finish().unwrap_err().contains("missing position"));
    }
}
