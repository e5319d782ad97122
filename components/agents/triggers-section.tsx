"use client";
// Triggers: what starts this agent's runs without someone at the playground, its webhook and its schedules. They
// are saved as they are changed, apart from the agent's draft, and start the agent as last saved.
import { EditorSection } from "./editor-section";
import { TriggersSchedules } from "./triggers-schedules";
import { TriggersWebhook } from "./triggers-webhook";

export function TriggersSection({ agentId }: { agentId: string }) {
  return (
    <EditorSection
      id="triggers"
      title="Triggers"
      lede="What starts this agent without you: a webhook other programs call, and schedules. Each change is saved at once; runs use the agent as last saved and are listed in Runs."
    >
      <div className="flex flex-col gap-6">
        <TriggersWebhook agentId={agentId} />
        <TriggersSchedules agentId={agentId} />
      </div>
    </EditorSection>
  );
}
