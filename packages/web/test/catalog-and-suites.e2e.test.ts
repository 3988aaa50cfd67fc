import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, shot, signIn, startHarness, type Harness } from './browser-harness.js';

const DEMO_SPEC = fileURLToPath(new URL('../../../examples/demo-api/openapi.yaml', import.meta.url));
const REQUIREMENT = 'create an order for a new customer, then ship it';

let harness: Harness;
let page: Page;

beforeAll(async () => {
  harness = await startHarness();
  page = await harness.browser.newPage({ viewport: { width: 1440, height: 900 } });
});

afterAll(async () => {
  await page?.screenshot({ path: `${SCREENSHOTS}catalog-and-suites-last.png` });
  await harness?.close();
});

describe('the catalog, suites and flows pages, as a person uses them', () => {
  it('imports a spec, plans a requirement and opens the scaffolded flow in its frame', async () => {
    await page.goto(harness.server.url);
    await signIn(page);
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.getByRole('heading', { name: 'Catalog & discovery' }).waitFor();
    await page.getByText('The catalog is empty').waitFor();

    // A broken document is refused with the reason, and nothing is imported.
    await page.getByLabel('OpenAPI file', { exact: true }).setInputFiles({
      name: 'broken.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from('openapi: 3.0.3\ninfo: {}\npaths: 12\n'),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /OpenAPI|document/i })
      .waitFor();

    await page.getByLabel('OpenAPI file', { exact: true }).setInputFiles(DEMO_SPEC);
    await page.getByLabel('Spec name (optional)').fill('demo');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Imported demo/ })
      .waitFor();

    // Browse: every operation of the demo API, then a search.
    const rows = page.getByRole('table', { name: 'Catalog endpoints' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThan(4);
    await page.getByLabel('Search endpoints').fill('ship');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('/orders/{orderId}/ship');

    // Plan: the roadmap names its steps in run order, the binding and the candidates.
    await page.getByRole('textbox', { name: 'Requirement' }).fill(REQUIREMENT);
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    const steps = page.getByRole('list', { name: 'Roadmap steps' }).locator('li');
    await steps.first().waitFor();
    const stepTexts = await steps.allTextContents();
    expect(stepTexts.map((text) => /(GET|POST|PUT|DELETE|PATCH) (\S+)/.exec(text)?.slice(1).join(' '))).toEqual([
      'POST /customers',
      'POST /orders',
      'POST /orders/{orderId}/ship',
    ]);
    const bindings = page.getByRole('table', { name: 'Roadmap bindings' });
    expect(await bindings.textContent()).toContain('customerId');
    expect(
      await page
        .getByRole('table', { name: /^Candidates for/ })
        .first()
        .locator('tbody tr')
        .count(),
    ).toBeGreaterThan(0);
    await shot(page, '09-catalog-roadmap');

    // Scaffold: the flow opens on the canvas, its three nodes inside a frame titled with the requirement.
    await page.getByLabel('Flow name (optional)').fill('order-and-ship');
    await page.getByRole('button', { name: 'Scaffold onto the canvas' }).click();
    await page.locator('.react-flow__pane').waitFor();
    await expect.poll(() => page.locator('.react-flow__node-step').count()).toBe(3);
    const frame = page.locator('.react-flow__node-frame');
    await frame.waitFor();
    expect(await frame.locator('.frame-title').textContent()).toContain('create an order');
    const frameBox = (await frame.boundingBox())!;
    for (const node of await page.locator('.react-flow__node-step').all()) {
      const box = (await node.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(frameBox.x);
      expect(box.y).toBeGreaterThanOrEqual(frameBox.y);
      expect(box.x + box.width).toBeLessThanOrEqual(frameBox.x + frameBox.width);
      expect(box.y + box.height).toBeLessThanOrEqual(frameBox.y + frameBox.height);
    }
    await expect.poll(() => page.locator('.problems-count').textContent(), { timeout: 10_000 }).toBe('Valid');
    // Opening the flow, the canvas measuring its nodes, and selecting one change nothing saved.
    await page.locator('.react-flow__node-step .step-name').first().click();
    expect(await page.locator('.canvas-toolbar').textContent()).not.toContain('unsaved changes');
    await shot(page, '10-scaffolded-flow');

    // Renaming a node rewrites the expressions that read it (the order's customerId binding).
    const step = (name: string) => page.locator(`.react-flow__node:has([data-node-name="${name}"]) .step-name`);
    await step('CreateACustomer').click();
    const nameField = page.getByLabel('Name', { exact: true });
    await nameField.fill('NewCustomer');
    await nameField.press('Enter');
    await page.locator('[data-node-name="NewCustomer"]').waitFor();
    await page.locator('.canvas-toolbar').getByText('unsaved changes').waitFor();
    await step('PlaceAnOrderForACustomer').click();
    const settings = page.getByRole('region', { name: 'Settings of PlaceAnOrderForACustomer' });
    const fieldValues = () =>
      settings.evaluate((el) =>
        [...(el as unknown as { querySelectorAll(s: string): { value: string }[] }).querySelectorAll('input, textarea')]
          .map((field) => field.value)
          .join('\n'),
      );
    await expect.poll(fieldValues).toContain('{{ResponseBinding.NewCustomer.body.id}}');
    expect(await fieldValues()).not.toContain('CreateACustomer');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved version 2.').waitFor();

    const saved = (await harness.api('GET', '/api/gateway/flows?search=order-and-ship')).items[0];
    const document = await harness.api('GET', `/api/gateway/flows/${saved.id}`);
    expect(document.flowData.canvasGroups).toHaveLength(1);
    expect([...document.flowData.canvasGroups[0].nodeIds].sort()).toEqual(
      document.nodes.map((node: { id: string }) => node.id).sort(),
    );
    const savedNodes = JSON.stringify(document.nodes);
    expect(savedNodes).toContain('{{ResponseBinding.NewCustomer.body.id}}');
    expect(savedNodes).not.toContain('CreateACustomer');
  });

  it("lists each suite's earlier runs with their KPIs, whoever started them, and the schedules' next due times", async () => {
    const flow = await harness.api('POST', '/api/gateway/flows', {
      name: 'echo-check',
      nodes: [
        {
          id: 'n1',
          name: 'Echo',
          type: 'endpoint',
          position: { x: 0, y: 0 },
          config: { url: '{{env.baseUrl}}/echo?check=1' },
        },
      ],
      connections: [],
    });
    const suite = await harness.api('POST', '/api/gateway/suites', { name: 'smoke', flowIds: [flow.id] });
    // Two runs through the API, before the page is opened: one passing, one without the environment.
    const passed = await harness.api('POST', `/api/gateway/suites/${suite.id}/run`, {
      env: { baseUrl: harness.demo.url },
    });
    expect(passed.status).toBe('passed');
    const failed = await harness.api('POST', `/api/gateway/suites/${suite.id}/run`, {});
    expect(failed.status).toBe('failed');
    const schedule = await harness.api('POST', '/api/schedules', {
      name: 'nightly-smoke',
      cron: '30 2 * * *',
      target: { type: 'suite', id: suite.id },
    });
    expect(schedule.nextDueTimes).toHaveLength(3);

    await page.getByRole('link', { name: 'Suites & schedules' }).click();
    const row = page.locator('tr[data-suite-name="smoke"]');
    await row.getByText('failed', { exact: true }).waitFor();
    expect(await row.textContent()).toContain('0% · 0 passed, 1 failed');
    await row.locator('xpath=following-sibling::tr[1]').getByText('Earlier runs (2)').click();
    const runs = page.getByRole('table', { name: 'Runs of smoke' }).locator('tbody tr');
    expect(await runs.count()).toBe(2);
    expect(await runs.nth(0).getAttribute('data-run-id')).toBe(failed.runId);
    expect(await runs.nth(1).getAttribute('data-run-id')).toBe(passed.runId);
    expect(await runs.nth(1).textContent()).toContain('100%');

    // A run from the page joins the list.
    await row.getByRole('button', { name: 'Run suite' }).click();
    await page.getByText('Earlier runs (3)').waitFor();

    const scheduleRow = page.locator('tr[data-schedule-name="nightly-smoke"]');
    expect(await scheduleRow.textContent()).toContain('suite smoke');
    const dueTimes = await scheduleRow
      .locator('time')
      .evaluateAll((times) => times.map((time) => (time as unknown as { dateTime: string }).dateTime));
    expect(dueTimes).toEqual(schedule.nextDueTimes);
    await shot(page, '11-suites');
  });

  it('imports a YAML flow file on the flows page', async () => {
    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    const yaml = [
      'name: yaml-import',
      'nodes:',
      '  - { id: n1, name: Ping, type: endpoint, position: { x: 0, y: 0 }, config: { url: "{{env.baseUrl}}/echo" } }',
      'connections: []',
    ].join('\n');
    await page.getByLabel('Flow file to import').setInputFiles({
      name: 'yaml-import.flow.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from(yaml),
    });
    await page.getByRole('status').filter({ hasText: 'Imported yaml-import.' }).waitFor();
    await page.getByRole('link', { name: 'yaml-import' }).waitFor();
    // A YAML syntax error is named with its line, and nothing is created.
    await page.getByLabel('Flow file to import').setInputFiles({
      name: 'broken.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from('name: broken\nnodes: [\n'),
    });
    await page
      .getByRole('alert')
      .filter({ hasText: /broken\.yaml: not valid YAML: .* line \d+/ })
      .waitFor();
    expect((await harness.api('GET', '/api/gateway/flows?search=broken')).items).toHaveLength(0);
  });
});
