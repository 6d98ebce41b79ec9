/**
 * What `electron` resolves to in unit tests: the real package would try to download its binary. A
 * test that needs Electron mocks it with `vi.mock('electron', ...)`; one that forgets fails here.
 */
throw new Error('electron is not available in unit tests: mock it with vi.mock("electron", () => ({ ... })).');
