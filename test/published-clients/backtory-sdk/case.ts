import type { TestServer } from '../../../mock-server/test/support/server.js';
import type { Service } from '../support/service.js';
import type { PublishedClient } from './client.js';

export interface DriveContext {
  client: PublishedClient;
  server: TestServer;
  service: Service;
}

/** One operation of the published client, called as an app developer would, with its outcome checked. */
export interface Case {
  /** `Class.method`, with the use in parentheses where one method is driven in several ways. */
  operation: string;
  /** Sets up what the call needs through the spec's own requests, calls the client, checks what it did; throws why not. */
  drive(context: DriveContext): Promise<void>;
}
