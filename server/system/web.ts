// system:web: fetch one page as text (seed 002's fetch_url). The length cap is a setting, so the model sets only url.
import { inputs, operation, type SystemSource } from "./types";

export const web: SystemSource = {
  name: "web",
  title: "Web",
  description: "Fetch web pages over HTTP and HTTPS and read them as text.",
  settings_schema: {
    type: "object",
    properties: {
      max_length: {
        type: "integer",
        minimum: 100,
        default: 20_000,
        description: "Most characters of a page's text returned; the download itself is not cut.",
      },
    },
    required: [],
  },
  operations: [
    operation({
      name: "fetch_url",
      title: "Fetch a web page",
      description:
        "Fetch one http or https URL and answer its text (HTML turned into readable text), cut at the length limit; refuses other schemes and answers the status of a failed request.",
      input_schema: inputs({ url: { type: "string", description: "The page's address, starting with http:// or https://." } }, ["url"]),
      risk: "network",
      read_only: true,
      // Seed 002's table: 60 seconds.
      timeout: 60,
      capabilities: ["web.fetch"],
    }),
  ],
  handlers: {},
};
