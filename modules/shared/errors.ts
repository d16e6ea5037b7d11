/**
 * Domain errors that keep `instanceof` true across copies of their module (issue 25, item 3).
 *
 * The server runs `modules/` as native ES modules, while the Remix app is compiled by Vite, which
 * bundles its own copy of every module a route imports (server/README.md, "Why loaders and actions
 * reach the domain only through context"). A `BillingError` thrown by the root's adapter was therefore
 * not an `instanceof BillingError` in a route, and the route's 404 became a 500. A class that extends
 * `DomainError` names itself with a static `kind`; every instance carries the kinds of its class
 * chain under a global symbol (`Symbol.for`, one registry per process), and `instanceof` compares
 * those names, not constructor identity. Each kind is unique in the code base (a unit test says so).
 */
const KINDS = Symbol.for('rewardloop.domain-error.kinds');

type Branded = { [KINDS]?: unknown };

export class DomainError extends Error {
  /** The class's name in the process-wide registry; override it in every subclass. */
  static readonly kind: string = 'DomainError';

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, 'kind')) kinds.push((c as unknown as { kind: string }).kind);
    }
    Object.defineProperty(this, KINDS, { value: Object.freeze(kinds), enumerable: false });
    this.name = new.target.kind;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const kinds = (value as Branded)[KINDS];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}
