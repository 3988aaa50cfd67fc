import { createContext, useContext } from 'react';
import type { Annotation, CanvasGroup } from '@svc/engine/flow-model';
import type { StepView, ValidationProblem } from '../api/types.js';

/** What the canvas's nodes and wires read besides their own data: problems, the run, edits. */
export interface CanvasStatus {
  problemsByNode: ReadonlyMap<string, ValidationProblem[]>;
  problemsByWire: ReadonlyMap<string, ValidationProblem[]>;
  /** The latest step of each node in the execution shown, by node id. */
  runByNode: ReadonlyMap<string, StepView>;
  updateFrame(canvasId: string, patch: Partial<CanvasGroup>): void;
  updateNote(canvasId: string, patch: Partial<Annotation>): void;
}

export const CanvasStatusContext = createContext<CanvasStatus>({
  problemsByNode: new Map(),
  problemsByWire: new Map(),
  runByNode: new Map(),
  updateFrame: () => undefined,
  updateNote: () => undefined,
});

export const useCanvasStatus = () => useContext(CanvasStatusContext);

/** A node's class on the canvas from its latest step: ran, failed, skipped, waiting. */
export function runClass(step: StepView | undefined): string {
  if (step === undefined) return '';
  if (step.status === 'Skipped') return 'run-skipped';
  if (step.status === 'Failed') return 'run-failed';
  if (step.status === 'Waiting') return 'run-waiting';
  return 'run-completed';
}
