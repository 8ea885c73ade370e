/**
 * What Chromium itself computes for assistive technology (its accessibility tree over CDP), for
 * what playwright-core's locators cannot ask: an element's accessible description.
 */
import type { Page } from 'playwright-core';

interface AXValue {
  value?: unknown;
}
interface AXNode {
  ignored?: boolean;
  role?: AXValue;
  name?: AXValue;
  description?: AXValue;
}

/** The accessible description of the one element with this role and exact name ('' when it has none). */
export async function accessibleDescription(page: Page, role: string, name: string): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
    const found = nodes.filter((n) => !n.ignored && n.role?.value === role && n.name?.value === name);
    if (found.length !== 1) throw new Error(`${found.length} ${role} elements named "${name}"`);
    return String(found[0]!.description?.value ?? '');
  } finally {
    await cdp.detach();
  }
}
