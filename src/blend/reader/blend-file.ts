import { asBlendFileError, corruptError } from './blend-file-error';
import type { BlendHeader } from './blend-header';
import { blockCode, codeText } from './block-header';
import { blockForPointer, CODE_DNA, isIdCode, scanBlocks, type BlockIndex } from './block-index';
import type { BlendCompression, ByteSource, FileIdentity } from './byte-source';
import { openByteSource, type OpenByteSourceOptions } from './open-byte-source';
import { parseSdna, type Sdna, type SdnaStruct } from './sdna';
import { StructView } from './struct-view';
import { WindowReader } from './window-reader';

/** Longest list followed through `next` pointers before giving up (a loop in a damaged file). */
const MAX_LIST = 1_000_000;

/**
 * A .blend opened for reading: header, block index and SDNA in memory, block data read by offset when
 * asked (small blocks cached). Close it when done.
 */
export class BlendFile {
  private constructor(
    readonly source: ByteSource,
    private readonly reader: WindowReader,
    readonly index: BlockIndex,
    readonly sdna: Sdna,
  ) {}

  /** Open and index `path`; throws a BlendFileError naming the file when it cannot be read. */
  static async open(path: string, options: OpenByteSourceOptions = {}): Promise<BlendFile> {
    let source: ByteSource;
    try {
      source = await openByteSource(path, options);
    } catch (error) {
      throw asBlendFileError(path, error);
    }
    const reader = new WindowReader(source);
    try {
      const index = await scanBlocks(source, reader);
      const dna = index.codes.indexOf(CODE_DNA);
      if (dna < 0) throw corruptError(path, 'it has no structure description (DNA1 block)');
      const data = await reader.read(index.dataOffset[dna]!, index.length[dna]!);
      const sdna = parseSdna(data, index.header.pointerSize, index.header.littleEndian);
      return new BlendFile(source, reader, index, sdna);
    } catch (error) {
      await source.close().catch(() => undefined);
      throw asBlendFileError(path, error);
    }
  }

  get path(): string {
    return this.source.path;
  }

  get header(): BlendHeader {
    return this.index.header;
  }

  get compression(): BlendCompression {
    return this.source.compression;
  }

  /** The file on disk as it was when opened (device, inode, modification time). */
  get identity(): FileIdentity {
    return this.source.identity;
  }

  /** Decompressed size of the file as Blender reads it. */
  get size(): number {
    return this.source.size;
  }

  /** Indices of the ID blocks with this two-letter code (`IM`, `LI`, `OB`, ...). */
  idBlocks(code: string): number[] {
    const wanted = blockCode(code);
    const out: number[] = [];
    for (let i = 0; i < this.index.count; i++) if (this.index.codes[i] === wanted) out.push(i);
    return out;
  }

  /** The code of a block as text (`IM`, `DATA`). */
  codeOf(block: number): string {
    return codeText(this.index.codes[block]!);
  }

  /** Indices of every ID block. */
  allIdBlocks(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.index.count; i++) if (isIdCode(this.index.codes[i]!)) out.push(i);
    return out;
  }

  /** The SDNA struct a block holds. */
  structOf(block: number): SdnaStruct | undefined {
    try {
      return this.sdna.structAt(this.index.sdnaIndex[block]!);
    } catch (error) {
      throw asBlendFileError(this.path, error);
    }
  }

  /** The data of one block (small blocks come from a few cached windows of the file). */
  async readBlock(block: number): Promise<Buffer> {
    return this.guarded(() => this.readWhole(block));
  }

  private async readWhole(block: number): Promise<Buffer> {
    const length = this.index.length[block]!;
    const data = await this.reader.read(this.index.dataOffset[block]!, length);
    if (data.length !== length) throw corruptError(this.path, `block ${block} cannot be read whole`);
    return data;
  }

  /** Every struct stored in a block (most blocks hold one). */
  async structs(block: number): Promise<StructView[]> {
    return this.guarded(() => this.structsOf(block));
  }

  private async structsOf(block: number): Promise<StructView[]> {
    const def = this.structOf(block);
    if (!def || def.size === 0) return [];
    const data = await this.readBlock(block);
    const count = Math.min(this.index.structCount[block]!, Math.floor(data.length / def.size));
    return Array.from({ length: count }, (_, i) => this.view(def, block, data, i * def.size));
  }

  /**
   * The `ID` header of a data-block (its first member, shared by every ID type), read without
   * describing the whole struct; null when the block does not start with one.
   */
  async idHeader(block: number): Promise<StructView | null> {
    return this.guarded(async () => {
      const def = this.sdna.struct('ID');
      if (!def || this.sdna.firstFieldType(this.index.sdnaIndex[block]!) !== 'ID') return null;
      const data = await this.readWhole(block);
      return data.length >= def.size ? this.view(def, block, data, 0) : null;
    });
  }

  /** The first struct of a block, or null when the block holds none. */
  async struct(block: number): Promise<StructView | null> {
    return (await this.structs(block))[0] ?? null;
  }

  /** The block a pointer field of `from` refers to, or -1. */
  blockOf(from: StructView, field: string, element = 0): number {
    try {
      return blockForPointer(this.index, from.pointer(field, element), from.block);
    } catch (error) {
      throw asBlendFileError(this.path, error);
    }
  }

  /** The struct a pointer field of `from` refers to, or null. */
  async follow(from: StructView, field: string): Promise<StructView | null> {
    const block = this.blockOf(from, field);
    return block < 0 ? null : this.struct(block);
  }

  /** An embedded struct field (e.g. `id`, `ldata`) of `from`. */
  embedded(from: StructView, field: string): StructView | null {
    try {
      return from.embedded(field);
    } catch (error) {
      throw asBlendFileError(this.path, error);
    }
  }

  /** The elements of a ListBase field (`first`, then each element's `next`), stopping at loops. */
  async list(from: StructView, field: string): Promise<StructView[]> {
    return this.guarded(() => this.listOf(from, field));
  }

  private async listOf(from: StructView, field: string): Promise<StructView[]> {
    const base = this.embedded(from, field);
    if (!base) return [];
    const out: StructView[] = [];
    const seen = new Set<number>();
    let block = blockForPointer(this.index, base.pointer('first'), from.block);
    while (block >= 0 && !seen.has(block) && out.length < MAX_LIST) {
      seen.add(block);
      const element = await this.struct(block);
      if (!element) break;
      out.push(element);
      block = blockForPointer(this.index, element.pointer('next'), block);
    }
    return out;
  }

  /** A NUL-terminated string held in a block of its own (e.g. `Text.filepath`). */
  async blockString(block: number): Promise<string> {
    const data = await this.readBlock(block);
    const end = data.indexOf(0);
    return data.subarray(0, end < 0 ? data.length : end).toString('utf8');
  }

  async close(): Promise<void> {
    this.reader.clear();
    await this.source.close();
  }

  /** Runs one read of this file's data, turning whatever its bytes make go wrong into a BlendFileError. */
  private async guarded<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw asBlendFileError(this.path, error);
    }
  }

  private view(def: SdnaStruct, block: number, data: Buffer, base: number): StructView {
    const { littleEndian, pointerSize, version } = this.index.header;
    return new StructView(def, block, data, base, this.index.dataOffset[block]!, { littleEndian, pointerSize, version, sdna: this.sdna });
  }
}
