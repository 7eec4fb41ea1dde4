/**
 * A fetch that gives up on a silent peer: the download of a model must end in an answer (the model, or
 * "cannot download"), never in a provider that says "loading" forever because a proxy swallowed the
 * connection. The timer restarts with every chunk received, so a slow but live download of a large file
 * is never cut.
 */

export function fetchWithStallTimeout(base: typeof fetch, stallMs: number): typeof fetch {
  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const controller = new AbortController();
    const stalled = () => controller.abort(new Error(`no data from ${url} for ${Math.round(stallMs / 1000)} s`));
    let timer = setTimeout(stalled, stallMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    let response: Response;
    try {
      response = await base(input, { ...init, signal });
    } finally {
      clearTimeout(timer);
    }
    if (!response.body) return response;
    const reader = response.body.getReader();
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
    });
    aborted.catch(() => {}); // observed through the race below; never an unhandled rejection
    const body = new ReadableStream<Uint8Array>({
      async pull(out) {
        timer = setTimeout(stalled, stallMs);
        try {
          const { done, value } = await Promise.race([reader.read(), aborted]);
          if (done) out.close();
          else out.enqueue(value);
        } catch (e) {
          out.error(e);
          reader.cancel(e).catch(() => {});
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return wrapped as typeof fetch;
}
