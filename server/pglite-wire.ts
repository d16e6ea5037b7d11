import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
const QUERY = 0x51; // 'Q': a simple query; ReadyForQuery follows
const SYNC = 0x53; // 'S': ends an extended-protocol sequence; ReadyForQuery follows
const TERMINATE = 0x58; // 'X'

type Connection = { socket: Socket; buffer: Buffer; started: boolean; closed: boolean; chain: Promise<void> };

/**
 * Serves one PGlite over the PostgreSQL wire protocol on loopback, to many connections (ADR 019).
 *
 * PGlite is a single backend: its unnamed prepared statement and portal, and its transaction, are
 * shared by every connection. So a connection holds the backend from its first message until a
 * point where another may safely go: after a Sync or a simple Query (the end of a request), and only
 * when no transaction is open. Other connections wait their turn, first come first served. Messages
 * of one connection are handled strictly in order.
 *
 * This replaces @electric-sql/pglite-socket 0.2, whose queue let a second connection's messages in
 * between another's Parse and Bind outside transactions and handled one socket's chunks
 * concurrently: under concurrent simple and extended queries it answered "unnamed prepared statement
 * does not exist", returned rows to the wrong query, and hung.
 */
export class PgliteWireServer {
  private readonly db: PGlite;
  private readonly host: string;
  private readonly port: number;
  private server: Server | null = null;
  private readonly connections = new Set<Connection>();
  private owner: Connection | null = null;
  private readonly waiting: Array<{ conn: Connection; grant: () => void }> = [];

  constructor(options: { db: PGlite; host?: string; port?: number }) {
    this.db = options.db;
    this.host = options.host ?? '127.0.0.1';
    this.port = options.port ?? 0;
  }

  async start(): Promise<void> {
    const server = createServer((socket) => this.attach(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => resolve());
    });
    this.server = server;
  }

  /** host:port */
  address(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('The PGlite server is not listening.');
    return `${this.host}:${address.port}`;
  }

  async stop(): Promise<void> {
    for (const conn of this.connections) conn.socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private attach(socket: Socket): void {
    socket.setNoDelay(true);
    const conn: Connection = { socket, buffer: Buffer.alloc(0), started: false, closed: false, chain: Promise.resolve() };
    this.connections.add(conn);
    socket.on('data', (chunk: Buffer) => {
      conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, chunk]) : chunk;
      // One chain per connection: its messages are handled in order, never two at once.
      conn.chain = conn.chain.then(() => this.drain(conn)).catch(() => void socket.destroy());
    });
    const closed = () => {
      if (conn.closed) return;
      conn.closed = true;
      this.connections.delete(conn);
      // Waiting for the backend: leave the line now (its pending message is dropped).
      const at = this.waiting.findIndex((w) => w.conn === conn);
      if (at !== -1) this.waiting.splice(at, 1)[0]!.grant();
      // Holding it: once its current message is done, roll back what it left open and let go.
      conn.chain = conn.chain.then(() => this.abandon(conn));
    };
    socket.on('close', closed);
    socket.on('error', closed);
  }

  /** Handles every complete message in the connection's buffer. */
  private async drain(conn: Connection): Promise<void> {
    while (!conn.closed) {
      if (!conn.started) {
        if (conn.buffer.length < 8) return;
        const length = conn.buffer.readInt32BE(0);
        const code = conn.buffer.readInt32BE(4);
        if (conn.buffer.length < length) return;
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          conn.buffer = conn.buffer.subarray(length);
          conn.socket.write('N'); // no encryption on loopback
          continue;
        }
        if (code === CANCEL_REQUEST) {
          // PGlite has no backend to signal; the protocol expects no answer.
          conn.socket.end();
          return;
        }
        if (code !== PROTOCOL_3) {
          conn.socket.destroy();
          return;
        }
        const startup = conn.buffer.subarray(0, length);
        conn.buffer = conn.buffer.subarray(length);
        conn.started = true;
        await this.execute(conn, startup, true);
        continue;
      }
      if (conn.buffer.length < 5) return;
      const length = 1 + conn.buffer.readInt32BE(1);
      if (conn.buffer.length < length) return;
      const message = conn.buffer.subarray(0, length);
      conn.buffer = conn.buffer.subarray(length);
      const type = message[0];
      if (type === TERMINATE) {
        conn.socket.end();
        return;
      }
      await this.execute(conn, message, type === SYNC || type === QUERY);
    }
  }

  /** Runs one message with the backend held; lets it go at the end of a request outside a transaction. */
  private async execute(conn: Connection, message: Buffer, endsRequest: boolean): Promise<void> {
    await this.acquire(conn);
    if (conn.closed) {
      this.release(conn);
      return;
    }
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(new Uint8Array(message), {
        onRawData: (data: Uint8Array) => {
          if (!conn.closed && conn.socket.writable) conn.socket.write(data);
        },
      }),
    );
    if (endsRequest && !this.db.isInTransaction()) this.release(conn);
  }

  private acquire(conn: Connection): Promise<void> {
    if (this.owner === conn) return Promise.resolve();
    if (this.owner === null) {
      this.owner = conn;
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiting.push({ conn, grant }));
  }

  private release(conn: Connection): void {
    if (this.owner !== conn) return;
    const next = this.waiting.shift();
    this.owner = next?.conn ?? null;
    next?.grant();
  }

  /** A connection that went away: roll back its open transaction, if it held the backend, and let it go. */
  private async abandon(conn: Connection): Promise<void> {
    if (this.owner !== conn) return;
    try {
      if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    } finally {
      this.release(conn);
    }
  }
}
