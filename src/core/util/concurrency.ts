/**
 * Runs `worker` over `items` with at most `limit` running at once. Rejects with the first failure
 * after the running ones settle; no new item starts once one has failed.
 */
export async function runPool<T>(items: readonly T[], limit: number, worker: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (failures.length === 0 && next < items.length) {
      const index = next++;
      try {
        await worker(items[index]!, index);
      } catch (error) {
        failures.push(error);
      }
    }
  });
  await Promise.all(lanes);
  if (failures.length > 0) throw failures[0];
}
