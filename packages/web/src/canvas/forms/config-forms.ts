import {
  collectConfigSchema,
  delayConfigSchema,
  endpointConfigSchema,
  forConfigSchema,
  repeatConfigSchema,
  subflowConfigSchema,
  switchConfigSchema,
  variablesConfigSchema,
  webhookConfigSchema,
} from '@svc/engine/flow-model';
import type { ComponentType } from 'react';
import type { z } from 'zod';
import { EndpointForm } from './endpoint-form.js';
import type { ConfigFormProps } from './fields.js';
import { CollectForm, DelayForm, ForForm, RepeatForm, SubflowForm, VariablesForm, WebhookForm } from './other-forms.js';
import { SwitchForm } from './switch-form.js';

/** Each node type's form and the engine's schema for its config, which the form's errors come from. */
export const CONFIG_FORMS: Record<string, { schema: z.ZodType; Form: ComponentType<ConfigFormProps> }> = {
  endpoint: { schema: endpointConfigSchema, Form: EndpointForm },
  switch: { schema: switchConfigSchema, Form: SwitchForm },
  for: { schema: forConfigSchema, Form: ForForm },
  repeat: { schema: repeatConfigSchema, Form: RepeatForm },
  collect: { schema: collectConfigSchema, Form: CollectForm },
  subflow: { schema: subflowConfigSchema, Form: SubflowForm },
  'component-webhook': { schema: webhookConfigSchema, Form: WebhookForm },
  variables: { schema: variablesConfigSchema, Form: VariablesForm },
  delay: { schema: delayConfigSchema, Form: DelayForm },
};
