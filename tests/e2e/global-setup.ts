import type { TestProject } from 'vitest/node';
import { startServer } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    outboxDir: string;
  }
}

export default async function setup(project: TestProject) {
  // The hosted vision choice is offered (ADR 066); its endpoint is a closed local port, so nothing
  // could leave the machine even if a test uploaded a screenshot to a survey that chose it.
  const server = await startServer({ SCREENSHOT_VISION_API_KEY: 'sk-e2e-unused', SCREENSHOT_VISION_BASE_URL: 'http://127.0.0.1:9/v1' });
  project.provide('baseUrl', server.url);
  project.provide('outboxDir', `${server.dataDir}/outbox`);
  return async () => {
    await server.stop();
  };
}
