// Tests against real servers wait on real I/O (broker restarts, mail delivery); their own waits are bounded.
jest.setTimeout(90_000);
