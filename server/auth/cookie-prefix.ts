// The first part of the studio's cookie names (quiver.session_token, …): what better-auth is told to write and what
// a request is looked at for before better-auth is loaded (R-auth-anonymous-light).
export const COOKIE_PREFIX = "quiver";
