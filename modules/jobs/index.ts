/** modules/jobs: the JobQueue port (queues, retry policies, handlers); adapters/jobs implements it. */
export * from './port.ts';
