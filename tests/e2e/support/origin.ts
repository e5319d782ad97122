// The Origin the studio's own pages send with every change (R-req-origin): a test that posts to the API directly,
// as no page would, sends it too, or the studio refuses the request as another site's.
export const ownOrigin = { origin: `http://127.0.0.1:${process.env.QUIVER_E2E_PORT}` };
