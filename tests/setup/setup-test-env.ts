import { afterEach, vi } from 'vitest';

// A console.error during a test is a bug somewhere: fail the test that caused it.
let errorSpy: ReturnType<typeof vi.spyOn> | undefined;
errorSpy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
  errorSpy?.mockRestore();
  errorSpy = undefined;
  throw new Error(`console.error was called: ${args.map(String).join(' ')}`);
});

afterEach(() => {
  if (!errorSpy) {
    errorSpy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      throw new Error(`console.error was called: ${args.map(String).join(' ')}`);
    });
  }
});
