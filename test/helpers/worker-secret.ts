/** The worker secret the distributed tests give their nodes (see startTestNode) and workers. */
export const TEST_WORKER_SECRET = 'RW-dGVzdC13b3JrZXItc2VjcmV0LW9mLTMyLWJ5dGVzISE';
