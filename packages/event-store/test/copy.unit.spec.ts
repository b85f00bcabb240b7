import { describe, expect, it } from 'vitest';
import { copyChunks } from '../src/copy';

describe('COPY lines encoded into buffers', () => {
  it('given lines of any script and size, when chunked, then the buffers hold exactly their UTF-8 bytes, in order', () => {
    const lines = [
      ...Array.from({ length: 3_000 }, (_, i) => `${i}\tplain ascii\t{"a":1}\n`),
      'accents é à ü, CJK 漢字, an emoji 🧑‍💻 and a lone \\u00e9 escape\n',
      `${'x'.repeat(300_000)}\n`, // larger than one buffer
      ...Array.from({ length: 2_000 }, (_, i) => `${i}\t🧑‍💻 ${'é'.repeat(i % 50)}\n`),
    ];
    const buffers = [...copyChunks(lines)];
    expect(buffers.length).toBeGreaterThan(1);
    expect(buffers.every((b) => b.length > 0)).toBe(true);
    expect(Buffer.concat(buffers).equals(Buffer.from(lines.join(''), 'utf8'))).toBe(true);
  });

  it('given no lines, when chunked, then nothing is written', () => {
    expect([...copyChunks([])]).toEqual([]);
  });
});
