import type { FlowNode } from '@svc/engine/flow-model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  addEdge,
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useEdgesState,
  useNodesState,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type OnSelectionChangeParams,
  type XYPosition,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { ApiError } from '../api/client.js';
import { download, toFlowFile } from '../api/flow-file.js';
import { useApi } from '../api/session.js';
import {
  TERMINAL_STATUSES,
  type EnvironmentView,
  type ExecutionView,
  type FlowDocument,
  type StepView,
  type ValidationProblem,
} from '../api/types.js';
import { CanvasStatusContext, type CanvasStatus } from '../canvas/canvas-context.js';
import { ConfigPanel } from '../canvas/config-panel.js';
import { fieldPaths, type ExpressionScope } from '../canvas/expression-completions.js';
import {
  frameNodeId,
  noteNodeId,
  placedSteps,
  problemTarget,
  toDocument,
  toGraph,
  withMembership,
  type CanvasNode,
  type FrameNode,
  type StepNode,
  type Wire,
} from '../canvas/flow-graph.js';
import { boundsAround, moveMembers, type Point } from '../canvas/frame-geometry.js';
import { FrameNodeView, NoteNodeView } from '../canvas/frame-node.js';
import { freshName, nodeKindOf } from '../canvas/node-kinds.js';
import { Palette, PALETTE_MIME, type PaletteItem } from '../canvas/palette.js';
import { StepNodeView } from '../canvas/step-node.js';
import { TracePanel } from '../canvas/trace-panel.js';
import { upstreamOf } from '../canvas/upstream.js';
import { WireEdge } from '../canvas/wire-edge.js';
import { Link } from '../router.js';

const nodeTypes = { step: StepNodeView, frame: FrameNodeView, note: NoteNodeView };
const edgeTypes = { wire: WireEdge };
const VALIDATE_DELAY_MS = 400;
const POLL_MS = 400;
const NO_PROBLEMS: readonly ValidationProblem[] = [];

const newId = (prefix: string) => `${prefix}${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`;

function Editor({ flow, onReload }: { flow: FlowDocument; onReload(): void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { screenToFlowPosition } = useReactFlow();
  const initial = useMemo(() => toGraph(flow), [flow]);
  const [nodes, setNodesBase, onNodesChangeBase] = useNodesState<CanvasNode>(initial.nodes);
  const [edges, setEdgesBase, onEdgesChangeBase] = useEdgesState<Wire>(initial.edges);
  const [base, setBase] = useState(flow);
  const [dirty, setDirty] = useState(false);
  const [draft, setDraft] = useState(flow);
  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  const [conflict, setConflict] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const [environment, setEnvironment] = useState('');
  const [executionId, setExecutionId] = useState<string | null>(null);
  const frameDrag = useRef<{ frameId: string; from: Point; members: Map<string, Point> } | null>(null);

  // Every edit goes through these, so the canvas differs from what was saved; React Flow's own
  // bookkeeping (measuring nodes as they mount, selection) goes around them and changes nothing saved.
  const setNodes: typeof setNodesBase = useCallback(
    (update) => {
      setDirty(true);
      setNodesBase(update);
    },
    [setNodesBase],
  );
  const setEdges: typeof setEdgesBase = useCallback(
    (update) => {
      setDirty(true);
      setEdgesBase(update);
    },
    [setEdgesBase],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange<Wire>[]) => {
      if (changes.some((change) => change.type !== 'select')) setDirty(true);
      onEdgesChangeBase(changes);
    },
    [onEdgesChangeBase],
  );
  // The document is checked by the engine's validator once edits pause.
  useEffect(() => {
    const timer = setTimeout(() => setDraft(toDocument(base, nodes, edges)), VALIDATE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [nodes, edges, base]);

  const validation = useQuery({
    queryKey: ['validate', flow.id, JSON.stringify(draft)],
    queryFn: () =>
      api.send<{ ok: boolean; problems: ValidationProblem[] }>('POST', '/api/gateway/flows/validate', draft),
    placeholderData: (previous) => previous,
    staleTime: Infinity,
  });
  const problems = useMemo(() => validation.data?.problems ?? [], [validation.data]);

  const environments = useQuery({
    queryKey: ['environments'],
    queryFn: () => api.get<{ items: EnvironmentView[] }>('/api/gateway/environments'),
  });

  const execution = useQuery({
    queryKey: ['execution', executionId],
    enabled: executionId !== null,
    queryFn: () => api.get<ExecutionView>(`/api/gateway/executions/${encodeURIComponent(executionId!)}`),
    refetchInterval: (query) => (query.state.data && TERMINAL_STATUSES.has(query.state.data.status) ? false : POLL_MS),
  });

  const runByNode = useMemo(() => {
    const latest = new Map<string, StepView>();
    for (const step of execution.data?.steps ?? []) {
      const seen = latest.get(step.nodeId);
      if (seen === undefined || seen.seq < step.seq) latest.set(step.nodeId, step);
    }
    return latest;
  }, [execution.data]);

  const status = useMemo<CanvasStatus>(() => {
    const problemsByNode = new Map<string, ValidationProblem[]>();
    const problemsByWire = new Map<string, ValidationProblem[]>();
    for (const problem of problems) {
      const target = problemTarget(problem.path, draft);
      if (target === undefined) continue;
      const map = target.kind === 'wire' ? problemsByWire : problemsByNode;
      map.set(target.id, [...(map.get(target.id) ?? []), problem]);
    }
    return {
      problemsByNode,
      problemsByWire,
      runByNode,
      updateFrame: (canvasId, patch) =>
        setNodes((current) =>
          current.map((node) =>
            node.id === canvasId && node.type === 'frame'
              ? { ...node, data: { group: { ...node.data.group, ...patch } } }
              : node,
          ),
        ),
      updateNote: (canvasId, patch) =>
        setNodes((current) =>
          current.map((node) =>
            node.id === canvasId && node.type === 'note'
              ? { ...node, data: { annotation: { ...node.data.annotation, ...patch } } }
              : node,
          ),
        ),
    };
  }, [problems, draft, runByNode, setNodes]);

  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => {
      // Measuring a node as it mounts, or selecting it, is no edit; resizing a frame is.
      if (
        changes.some(
          (change) => change.type !== 'select' && !(change.type === 'dimensions' && change.resizing === undefined),
        )
      )
        setDirty(true);
      onNodesChangeBase(changes);
      // A frame resized: the nodes inside it now are its members.
      if (
        changes.some(
          (change) => change.type === 'dimensions' && change.resizing === false && change.id.startsWith('frame:'),
        )
      ) {
        setNodesBase((current) => withMembership(current));
      }
    },
    [onNodesChangeBase, setNodesBase],
  );

  const onConnect = useCallback(
    (connection: Connection) =>
      setEdges((current) =>
        addEdge(
          { ...connection, id: newId('w'), type: 'wire', sourceHandle: connection.sourceHandle ?? 'out' },
          current,
        ),
      ),
    [setEdges],
  );

  const addItem = useCallback(
    (item: PaletteItem, at?: XYPosition) => {
      const position = at ?? screenToFlowPosition({ x: window.innerWidth / 2, y: window.innerHeight / 2 });
      if (item.kind === 'node') {
        const kind = nodeKindOf(item.type)!;
        setNodes((current) => {
          const taken = new Set(current.filter((n): n is StepNode => n.type === 'step').map((n) => n.data.node.name));
          const id = newId('n');
          const node: StepNode = {
            id,
            type: 'step',
            position,
            selected: true,
            data: {
              node: {
                id,
                name: freshName(kind.namePrefix, taken),
                type: kind.type,
                position,
                config: kind.defaultConfig(),
              },
            },
          };
          return withMembership([...current.map((n) => (n.selected ? { ...n, selected: false } : n)), node]);
        });
      } else if (item.kind === 'frame') {
        const id = newId('g');
        const frame: FrameNode = {
          id: frameNodeId(id),
          type: 'frame',
          position,
          width: 480,
          height: 280,
          zIndex: -1,
          data: {
            group: {
              id,
              title: 'Frame',
              color: item.color,
              bounds: { ...position, width: 480, height: 280 },
              nodeIds: [],
            },
          },
        };
        setNodes((current) => withMembership([frame, ...current]));
      } else {
        const id = newId('a');
        setNodes((current) => [
          ...current,
          { id: noteNodeId(id), type: 'note', position, data: { annotation: { id, text: 'Note', position } } },
        ]);
      }
    },
    [screenToFlowPosition, setNodes],
  );

  const frameSelection = useCallback(
    (color: PaletteItem & { kind: 'frame' } extends { color: infer C } ? C : never) => {
      setNodes((current) => {
        const chosen = placedSteps(current.filter((node) => node.selected));
        const bounds = boundsAround(chosen.map((node) => node.rect));
        if (bounds === undefined) return current;
        const id = newId('g');
        const frame: FrameNode = {
          id: frameNodeId(id),
          type: 'frame',
          position: { x: bounds.x, y: bounds.y },
          width: bounds.width,
          height: bounds.height,
          zIndex: -1,
          data: { group: { id, title: 'Frame', color, bounds, nodeIds: chosen.map((node) => node.id) } },
        };
        return withMembership([frame, ...current]);
      });
    },
    [setNodes],
  );

  const onDrop = useCallback(
    (event: DragEvent) => {
      const raw = event.dataTransfer.getData(PALETTE_MIME);
      if (!raw) return;
      event.preventDefault();
      addItem(JSON.parse(raw) as PaletteItem, screenToFlowPosition({ x: event.clientX, y: event.clientY }));
    },
    [addItem, screenToFlowPosition],
  );

  const onNodeDragStart = useCallback((_: unknown, node: CanvasNode, dragged: CanvasNode[]) => {
    if (node.type !== 'frame' || dragged.length !== 1) return;
    const members = new Set(node.data.group.nodeIds);
    frameDrag.current = {
      frameId: node.id,
      from: node.position,
      members: new Map(
        nodesRef.current.filter((n) => members.has(n.id)).map((n) => [n.id, n.position] as [string, Point]),
      ),
    };
  }, []);
  const nodesRef = useRef(nodes);
  nodesRef.current = nodes;

  const onNodeDrag = useCallback(
    (_: unknown, node: CanvasNode) => {
      const drag = frameDrag.current;
      if (drag === null || drag.frameId !== node.id) return;
      const moved = moveMembers(drag.members, drag.from, node.position);
      setNodes((current) => current.map((n) => (moved.has(n.id) ? { ...n, position: moved.get(n.id)! } : n)));
    },
    [setNodes],
  );

  const onNodeDragStop = useCallback(
    (event: unknown, node: CanvasNode) => {
      if (frameDrag.current !== null) {
        onNodeDrag(event, node);
        frameDrag.current = null;
        return;
      }
      setNodesBase((current) => withMembership(current));
    },
    [onNodeDrag, setNodesBase],
  );

  const onSelectionChange = useCallback(
    ({ nodes: chosen }: OnSelectionChangeParams) => setSelectedIds(chosen.map((n) => n.id)),
    [],
  );

  const save = useMutation({
    mutationFn: (document: FlowDocument) =>
      api.send<FlowDocument>('PUT', `/api/gateway/flows/${encodeURIComponent(flow.id!)}`, {
        ...document,
        expectedVersion: base.version,
      }),
    onSuccess: (saved) => {
      setBase(saved);
      setDirty(false);
      void queryClient.invalidateQueries({ queryKey: ['flow', flow.id], refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: ['flows'] });
      setNotice({ kind: 'info', text: `Saved version ${saved.version}.` });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409 && error.code !== 'FLOW_NAME_TAKEN') setConflict(true);
      else setNotice({ kind: 'error', text: error instanceof ApiError ? error.message : String(error) });
    },
  });
  const currentDocument = useCallback(() => toDocument(base, nodesRef.current, edgesRef.current), [base]);
  const edgesRef = useRef(edges);
  edgesRef.current = edges;

  const run = useMutation({
    mutationFn: async () => {
      if (dirty) await save.mutateAsync(currentDocument());
      return api.send<ExecutionView>(
        'POST',
        `/api/gateway/flows/${encodeURIComponent(flow.id!)}/run?waitMs=0`,
        environment ? { environment } : {},
      );
    },
    onSuccess: (started) => {
      queryClient.setQueryData(['execution', started.executionId], started);
      setExecutionId(started.executionId);
    },
    onError: (error) => setNotice({ kind: 'error', text: error instanceof ApiError ? error.message : String(error) }),
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key === 's') {
        event.preventDefault();
        save.mutate(currentDocument());
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save, currentDocument]);

  const selectedStep =
    selectedIds.length === 1
      ? (nodes.find((n) => n.id === selectedIds[0] && n.type === 'step') as StepNode | undefined)
      : undefined;
  const scope = useMemo<ExpressionScope>(() => {
    const steps = nodes.filter((n): n is StepNode => n.type === 'step');
    const upstream = selectedStep ? upstreamOf(selectedStep.id, edges) : new Set<string>();
    const responseFields: Record<string, string[]> = {};
    for (const step of execution.data?.steps ?? []) {
      if (step.response?.body !== undefined) responseFields[step.nodeName] = fieldPaths(step.response.body);
    }
    const flowVars = new Set(Object.keys(base.variables ?? {}));
    for (const step of steps) {
      if (step.data.node.type === 'variables')
        Object.keys((step.data.node.config.set as object) ?? {}).forEach((k) => flowVars.add(k));
    }
    const envNames = new Set<string>();
    for (const env of environments.data?.items ?? []) Object.keys(env.variables).forEach((k) => envNames.add(k));
    return {
      upstream: steps
        .filter((s) => upstream.has(s.id))
        .map((s) => ({ name: s.data.node.name, type: s.data.node.type })),
      responseFields,
      flowVars: [...flowVars],
      envNames: [...envNames],
    };
    // Positions do not change what is upstream: only the selection, wires, configs and the run do.
  }, [selectedStep?.id, selectedStep?.data, edges, execution.data, environments.data, base.variables, draft]);

  const updateStep = useCallback(
    (next: FlowNode) =>
      setNodes((current) =>
        current.map((n) => (n.id === next.id && n.type === 'step' ? { ...n, data: { node: next } } : n)),
      ),
    [setNodes],
  );

  const renameStep = useCallback(
    async (nodeId: string, name: string): Promise<string | undefined> => {
      // The parser of scripts loads with the first rename, not with the canvas.
      const { renameFlowNode } = await import('@svc/engine/rename-node');
      const document = toDocument(base, nodesRef.current, edgesRef.current);
      let renamed: FlowDocument;
      try {
        renamed = renameFlowNode(document, nodeId, name);
      } catch (error) {
        return (error as Error).message;
      }
      const before = new Map(document.nodes.map((node) => [node.id, node]));
      const changed = new Map(
        renamed.nodes
          .filter((node) => {
            const old = before.get(node.id);
            return (
              old === undefined || old.name !== node.name || JSON.stringify(old.config) !== JSON.stringify(node.config)
            );
          })
          .map((node) => [node.id, node]),
      );
      // Only the nodes whose name or expressions changed get new data: the others do not re-render.
      setNodes((current) =>
        current.map((n) => {
          const next = n.type === 'step' ? changed.get(n.id) : undefined;
          return next === undefined || n.type !== 'step'
            ? n
            : { ...n, data: { node: { ...n.data.node, name: next.name, config: next.config } } };
        }),
      );
      setBase((current) => ({ ...current, outputs: renamed.outputs, variables: renamed.variables }));
      setDirty(true);
      return undefined;
    },
    [base, setNodes],
  );

  const takenNames = useMemo(
    () =>
      new Set(
        nodes.filter((n): n is StepNode => n.type === 'step' && n.id !== selectedStep?.id).map((n) => n.data.node.name),
      ),
    [draft, selectedStep?.id],
  );

  const problemCount = problems.length;
  const selectedSteps = nodes.filter((n) => n.selected && n.type === 'step').length;

  return (
    <CanvasStatusContext.Provider value={status}>
      <div className="canvas-page">
        <div className="canvas-toolbar">
          <Link to="/">← Flows</Link>
          <h1>{base.name}</h1>
          <span className="muted">
            v{base.version}
            {dirty ? ' · unsaved changes' : ''}
          </span>
          <span
            className={problemCount ? 'problems-count error' : 'problems-count ok'}
            role="status"
            aria-live="polite"
          >
            {validation.isFetching && !validation.data
              ? 'Checking…'
              : problemCount
                ? `${problemCount} problem(s)`
                : 'Valid'}
          </span>
          <span className="spacer" />
          <button type="button" onClick={() => download(`${base.name}.flow.json`, toFlowFile(currentDocument()))}>
            Export
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => save.mutate(currentDocument())}
            disabled={save.isPending}
          >
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
          <label className="inline">
            Environment
            <select value={environment} onChange={(e) => setEnvironment(e.target.value)} aria-label="Environment">
              <option value="">None</option>
              {(environments.data?.items ?? []).map((env) => (
                <option key={env.id} value={env.name}>
                  {env.name}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="run" onClick={() => run.mutate()} disabled={run.isPending}>
            ▶ Run
          </button>
        </div>
        {notice && (
          <p role={notice.kind === 'error' ? 'alert' : 'status'} className={`notice ${notice.kind}`}>
            {notice.text}
            <button type="button" aria-label="Dismiss" onClick={() => setNotice(null)}>
              ×
            </button>
          </p>
        )}
        {conflict && (
          <div role="alertdialog" aria-labelledby="conflict-title" className="dialog">
            <h2 id="conflict-title">This flow was changed elsewhere</h2>
            <p>
              Someone saved a newer version since you opened it. Reload it to see theirs (your changes here are
              dropped), or keep editing.
            </p>
            <button
              type="button"
              className="primary"
              onClick={() => {
                setConflict(false);
                onReload();
              }}
            >
              Reload
            </button>
            <button type="button" onClick={() => setConflict(false)}>
              Keep editing
            </button>
          </div>
        )}
        <div className="canvas-body">
          <Palette onAdd={addItem} onFrameSelection={frameSelection} canFrameSelection={selectedSteps > 0} />
          <div
            className="canvas"
            onDragOver={(e) => {
              e.preventDefault();
              e.dataTransfer.dropEffect = 'move';
            }}
            onDrop={onDrop}
          >
            <ReactFlow<CanvasNode, Wire>
              nodes={nodes}
              edges={edges}
              nodeTypes={nodeTypes}
              edgeTypes={edgeTypes}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onNodeDragStart={onNodeDragStart}
              onNodeDrag={onNodeDrag}
              onNodeDragStop={onNodeDragStop}
              onSelectionChange={onSelectionChange}
              elevateNodesOnSelect={false}
              defaultEdgeOptions={{ type: 'wire' }}
              deleteKeyCode={['Delete', 'Backspace']}
              fitView
              fitViewOptions={{ maxZoom: 1 }}
              minZoom={0.1}
              onlyRenderVisibleElements
            >
              <Background gap={24} />
              <Controls />
              <MiniMap pannable zoomable />
            </ReactFlow>
          </div>
          <aside className="side-panel" aria-label="Node settings">
            {selectedStep ? (
              <ConfigPanel
                key={selectedStep.id}
                node={selectedStep.data.node}
                problems={status.problemsByNode.get(selectedStep.id) ?? NO_PROBLEMS}
                scope={scope}
                takenNames={takenNames}
                onRename={renameStep}
                onChange={updateStep}
              />
            ) : (
              <div className="muted">
                <p>Select a node to edit its settings.</p>
                <p className="small">
                  Drag from a node's output to another node's input to wire them. Select nodes and click a frame colour
                  to frame them.
                </p>
                {problemCount > 0 && (
                  <ul className="problems">
                    {problems.map((problem, index) => (
                      <li key={index}>
                        <code>{problem.path || '(flow)'}</code> {problem.message}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </aside>
        </div>
        {execution.data && <TracePanel execution={execution.data} onClose={() => setExecutionId(null)} />}
      </div>
    </CanvasStatusContext.Provider>
  );
}

/** The canvas of one flow: edit, validate live, save with versions, run and read the trace. */
export default function CanvasPage({ flowId }: { flowId: string }) {
  const api = useApi();
  const flow = useQuery({
    queryKey: ['flow', flowId],
    queryFn: () => api.get<FlowDocument>(`/api/gateway/flows/${encodeURIComponent(flowId)}`),
    staleTime: Infinity,
  });
  const [generation, setGeneration] = useState(0);
  if (flow.isError)
    return (
      <p role="alert" className="error">
        {(flow.error as Error).message}
      </p>
    );
  if (!flow.data) return <p className="muted">Loading the flow…</p>;
  return (
    <ReactFlowProvider>
      <Editor
        key={generation}
        flow={flow.data}
        onReload={() => void flow.refetch().then(() => setGeneration((g) => g + 1))}
      />
    </ReactFlowProvider>
  );
}
