import { describe, expect, it } from 'vitest';
import { putCheckpointSql, putWritesSql } from '../src/checkpointer';

describe('the checkpointer writes in one statement', () => {
  it('given new blobs, when a checkpoint is put, then its blobs and its row go in one statement, each blob four parameters after the six of the checkpoint', () => {
    const sql = putCheckpointSql('langgraph', 2);
    expect(sql).toMatch(/^WITH blobs AS \(\s*INSERT INTO "langgraph"\.checkpoint_blobs/);
    expect(sql).toContain('VALUES ($1, $2, $7, $8, $9, $10), ($1, $2, $11, $12, $13, $14)');
    expect(sql).toContain('ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING');
    expect(sql).toMatch(/INSERT INTO "langgraph"\.checkpoints .*\n\s*VALUES \(\$1, \$2, \$3, \$4, \$5, \$6\)/);
    expect(sql).toContain('DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata');
  });

  it('given no new blob, when a checkpoint is put, then only its row is written', () => {
    const sql = putCheckpointSql('langgraph', 0);
    expect(sql).not.toContain('checkpoint_blobs');
    expect(sql).toMatch(/^INSERT INTO "langgraph"\.checkpoints/);
  });

  it("given LangGraph's special channels only, when writes are put, then they replace what is there; otherwise they are kept", () => {
    const replacing = putWritesSql('langgraph', 2, true);
    expect(replacing).toContain('VALUES ($1, $2, $3, $4, $5, $6, $7, $8), ($1, $2, $3, $4, $9, $10, $11, $12)');
    expect(replacing).toContain('DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob');
    const keeping = putWritesSql('langgraph', 1, false);
    expect(keeping).toContain('DO NOTHING');
    expect(keeping).not.toContain('DO UPDATE');
  });
});
