/** A parsed result with the raw response it came from. */
export interface ApiResponse<T> {
  /** The validated response body. */
  data: T;
  /** The HTTP response (its body is already consumed). */
  response: Response;
  /** The `X-Request-Id` of the response. */
  requestId: string | undefined;
}

/**
 * The promise every SDK method returns: await it for the data, or call `withResponse()` for the
 * data with its response and request id. The request starts when the method is called.
 */
export class ApiPromise<T> extends Promise<T> {
  readonly #responsePromise: Promise<ApiResponse<T>>;
  #dataPromise: Promise<T> | undefined;

  constructor(responsePromise: Promise<ApiResponse<T>>) {
    super((resolve) => {
      // The base promise is never observed: then/catch/finally below read the response.
      resolve(undefined as T);
    });
    this.#responsePromise = responsePromise;
  }

  /** The data with the raw `Response` and its request id. */
  withResponse(): Promise<ApiResponse<T>> {
    return this.#responsePromise;
  }

  /** The raw `Response` (body consumed; use `withResponse()` for the data). */
  asResponse(): Promise<Response> {
    return this.#responsePromise.then((r) => r.response);
  }

  #data(): Promise<T> {
    this.#dataPromise ??= this.#responsePromise.then((r) => r.data);
    return this.#dataPromise;
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass; awaiting it must read the parsed response
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#data().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#data().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#data().finally(onfinally);
  }
}
