"use client";
// The browser's side of better-auth: sign in and sign out against /api/auth.
import { createAuthClient } from "better-auth/react";

export const authClient = createAuthClient({ basePath: "/api/auth" });
