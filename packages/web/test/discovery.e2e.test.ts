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
  await page?.screenshot({ path: `${SCREENSHOTS}discovery-last.png` });
  await harness?.close();
});

describe('the catalog page, as a person uses it', () => {
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
    await shot(page, '10-scaffolded-flow');

    const saved = (await harness.api('GET', '/api/gateway/flows?search=order-and-ship')).items[0];
    const document = await harness.api('GET', `/api/gateway/flows/${saved.id}`);
    expect(document.flowData.canvasGroups).toHaveLength(1);
    expect([...document.flowData.canvasGroups[0].nodeIds].sort()).toEqual(
      document.nodes.map((node: { id: string }) => node.id).sort(),
    );
  });
});
