import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, shot, signIn, startHarness, type Harness } from './browser-harness.js';

let harness: Harness;
let page: Page;

beforeAll(async () => {
  harness = await startHarness();
  await harness.api('POST', '/api/gateway/environments', { name: 'demo', variables: { baseUrl: harness.demo.url } });
  page = await harness.browser.newPage({ viewport: { width: 1440, height: 900 } });
});

afterAll(async () => {
  await page?.screenshot({ path: `${SCREENSHOTS}last.png` });
  await harness?.close();
});

/** Computed styles, read in the page (this file is compiled without the DOM's types). */
const computed = (locator: Locator, properties: string[]): Promise<Record<string, string>> =>
  locator.evaluate((el, names) => {
    const style = (globalThis as any).getComputedStyle(el);
    return Object.fromEntries(names.map((name: string) => [name, style[name]]));
  }, properties);

const stepNode = (name: string): Locator => page.locator(`.react-flow__node:has([data-node-name="${name}"])`);

async function nodeId(name: string): Promise<string> {
  return (await stepNode(name).getAttribute('data-id'))!;
}

async function center(locator: Locator) {
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Drags with the mouse in small steps, as a hand would (React Flow reads pointer moves). */
async function drag(from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + (to.x - from.x) / 2, from.y + (to.y - from.y) / 2, { steps: 8 });
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

async function wire(sourceName: string, handle: string, targetName: string) {
  const source = page.locator(
    `.react-flow__handle[data-nodeid="${await nodeId(sourceName)}"][data-handleid="${handle}"]`,
  );
  const target = stepNode(targetName).locator('.react-flow__handle.target');
  await drag(await center(source), await center(target));
}

async function addNode(type: string, at: { x: number; y: number }) {
  const canvas = (await page.locator('.react-flow__pane').boundingBox())!;
  await page
    .locator(`.palette-item[data-node-type="${type}"]`)
    .dragTo(page.locator('.react-flow__pane'), { targetPosition: { x: at.x, y: at.y } });
  expect(canvas.width).toBeGreaterThan(0);
}

async function select(name: string) {
  await stepNode(name).locator('.step-name').click();
  await page.getByRole('region', { name: `Settings of ${name}` }).waitFor();
}

describe('the web app, as a person uses it', () => {
  it('signs in, builds, saves and runs a flow with a switch, frames it, and creates a client', async () => {
    await page.goto(harness.server.url);
    await page.getByRole('heading', { name: 'Sign in to svc' }).waitFor();
    await shot(page, '01-sign-in');
    await signIn(page);
    await page.getByRole('heading', { name: 'Flows' }).waitFor();

    // A new flow opens on its canvas.
    await page.getByLabel('New flow name').fill('checkout');
    await page.getByRole('button', { name: 'Create flow' }).click();
    await page.locator('.react-flow__pane').waitFor();

    // An endpoint, a switch and two branches, dragged from the palette.
    await addNode('endpoint', { x: 40, y: 220 });
    await addNode('switch', { x: 320, y: 220 });
    await addNode('endpoint', { x: 600, y: 80 });
    await addNode('endpoint', { x: 600, y: 360 });
    await expect.poll(() => page.locator('.react-flow__node-step').count()).toBe(4);

    await select('Request');
    await page.getByRole('combobox', { name: 'URL' }).fill('{{env.baseUrl}}/echo?step=first');
    await select('Request2');
    await page.getByRole('combobox', { name: 'URL' }).fill('{{env.baseUrl}}/echo?branch=ok');
    await select('Request3');
    await page.getByRole('combobox', { name: 'URL' }).fill('{{env.baseUrl}}/echo?branch=other');

    // Wires: Request → Route, case-0 → Request2, default → Request3.
    await wire('Request', 'out', 'Route');
    await wire('Route', 'case-0', 'Request2');
    await wire('Route', 'default', 'Request3');
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(3);

    // The switch case, with the expression autocomplete offering the upstream node.
    await select('Route');
    const source = page.getByRole('combobox', { name: 'Case 1 source' });
    await source.fill('{{Req');
    await page.getByRole('listbox', { name: 'Completions for Case 1 source' }).waitFor();
    await page.getByRole('option', { name: /^Request\.statusCode/ }).click();
    await expect.poll(() => source.inputValue()).toBe('{{Request.statusCode}}');
    await page.getByLabel('Case 1 value').fill('200');
    await page.getByLabel('Case 1 label').fill('ok');

    // Valid live, switch wires purple with the case badge.
    await expect.poll(() => page.locator('.problems-count').textContent(), { timeout: 10_000 }).toBe('Valid');
    const badge = page.locator('.wire-badge.switch-badge', { hasText: 'ok' });
    await badge.waitFor();
    const switchWire = page.locator('.react-flow__edge-path.wire-switch').first();
    expect(await computed(switchWire, ['stroke'])).toEqual({ stroke: 'rgb(139, 92, 246)' });
    await shot(page, '02-canvas-built');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved version 2.').waitFor();

    // Run against the demo API through the stored environment.
    await page.getByLabel('Environment').selectOption('demo');
    await page.getByRole('button', { name: '▶ Run' }).click();
    await page.locator('[data-execution-status="Completed"]').waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page.locator('[data-node-name="Request2"]').getAttribute('data-run-status'))
      .toBe('Completed');
    const skipped = page.locator('[data-node-name="Request3"]');
    expect(await skipped.getAttribute('data-run-status')).toBe('Skipped');
    const style = (locator: Locator) => computed(locator, ['opacity', 'filter']);
    // Styles settle after a short transition.
    await expect.poll(() => style(skipped)).toEqual({ opacity: '0.35', filter: 'grayscale(0.95)' });
    expect(await style(page.locator('[data-node-name="Request2"]'))).toEqual({ opacity: '1', filter: 'none' });
    const skippedWire = page.locator('.react-flow__edge-path.run-skipped');
    await expect.poll(() => skippedWire.count()).toBe(1);
    await expect.poll(() => style(skippedWire)).toEqual({ opacity: '0.35', filter: 'grayscale(0.95)' });
    await shot(page, '03-run');

    // A step's response in the trace.
    await page
      .getByRole('region', { name: 'Execution trace' })
      .getByRole('button', { name: 'Request', exact: true })
      .click();
    const details = page.getByRole('region', { name: 'Step Request' });
    await details.getByText('Response 200').waitFor();
    expect(await details.locator('.step-response').textContent()).toContain('first');
    await shot(page, '04-trace');
    await page.getByRole('button', { name: 'Close the trace' }).click();

    // A frame around the two branches, renamed by double-click.
    await select('Request2');
    await stepNode('Request3')
      .locator('.step-name')
      .click({ modifiers: ['Control'] });
    await page.getByRole('button', { name: 'Emerald frame' }).click();
    const frame = page.locator('.react-flow__node-frame');
    await frame.waitFor();
    await frame.locator('.frame-title').dblclick();
    await page.getByLabel('Frame title').fill('Branches');
    await page.getByLabel('Frame title').press('Enter');
    await page.locator('[data-frame-title="Branches"]').waitFor();

    const boxes = async () => ({
      frame: (await frame.boundingBox())!,
      a: (await stepNode('Request2').boundingBox())!,
      b: (await stepNode('Request3').boundingBox())!,
    });
    const before = await boxes();
    // A click (and a small drag) on a child moves the child only, never the frame.
    await stepNode('Request2').locator('.step-name').click();
    const afterClick = await boxes();
    expect(afterClick.frame).toEqual(before.frame);
    // Dragging the frame by its bar moves both children by the same offset.
    const bar = (await frame.locator('.frame-bar').boundingBox())!;
    const grip = { x: bar.x + bar.width / 2, y: bar.y + bar.height / 2 };
    await drag(grip, { x: grip.x + 140, y: grip.y + 90 });
    const after = await boxes();
    const dx = after.frame.x - before.frame.x;
    const dy = after.frame.y - before.frame.y;
    expect(Math.abs(dx)).toBeGreaterThan(50);
    expect(Math.abs(dy)).toBeGreaterThan(30);
    for (const child of ['a', 'b'] as const) {
      expect(after[child].x - before[child].x).toBeCloseTo(dx, 0);
      expect(after[child].y - before[child].y).toBeCloseTo(dy, 0);
    }
    await shot(page, '05-frame');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved version 3.').waitFor();

    // After a reload (the credential was in memory only) the frame is still there.
    await page.reload();
    await signIn(page);
    await page.locator('[data-frame-title="Branches"]').waitFor();
    const saved = (await harness.api('GET', '/api/gateway/flows?search=checkout')).items[0];
    const document = await harness.api('GET', `/api/gateway/flows/${saved.id}`);
    expect(document.flowData.canvasGroups).toHaveLength(1);
    expect(document.flowData.canvasGroups[0]).toMatchObject({ title: 'Branches', color: 'Emerald' });
    expect([...document.flowData.canvasGroups[0].nodeIds].sort()).toEqual(
      [await nodeId('Request2'), await nodeId('Request3')].sort(),
    );

    // The flows list.
    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await page.getByRole('link', { name: 'checkout' }).waitFor();
    await shot(page, '06-flows');

    // Backoffice: a new client's secret, shown once.
    await page.getByRole('link', { name: 'Backoffice' }).click();
    await page.getByLabel('Client name').fill('ci-bot');
    await page.getByRole('button', { name: 'Create client' }).click();
    const secret = page.getByTestId('client-secret');
    await secret.waitFor();
    const text = (await secret.textContent())!;
    expect(text.length).toBeGreaterThan(30);
    await shot(page, '07-backoffice-secret');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'ci-bot' }).waitFor();
    expect(await page.content()).not.toContain(text);
  });
});
