/** Small helpers of the survey page's requests from the browser. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 'HTTP {status}: {text}' errors of spec 8 carry a JSON body; take its fields when there are any. */
export async function readError(res: Response): Promise<{ message: string; body: Record<string, unknown> }> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    return { message: typeof body.message === 'string' ? body.message : `${res.status}: ${text}`, body };
  } catch {
    return { message: `${res.status}: ${text || res.statusText}`, body: {} };
  }
}
