import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatMediumDate } from '../../../components/format';
import { renderScreen } from '../../../test/render';
import { NewsCard } from './news-card';

const ARTICLE = {
  id: '1',
  headline: 'Fed holds rates steady',
  summary: 'Policymakers see inflation cooling.',
  source: 'Reuters',
  category: 'top news',
  url: 'https://example.com/fed',
  image: 'https://example.com/fed.jpg',
  datetime: 1_795_190_400,
  related: '',
};

describe('NewsCard', () => {
  it('shows the market variant: headline, source, image, Summary, Category, Date and Read More in a new tab', () => {
    const { container } = renderScreen(<NewsCard article={ARTICLE} />);
    const card = screen.getByRole('article', { name: 'Fed holds rates steady' });
    expect(within(card).getByRole('heading', { name: 'Fed holds rates steady' })).toBeTruthy();
    expect(within(card).getByText('Reuters')).toBeTruthy();
    expect(card.textContent).toContain('Summary: Policymakers see inflation cooling.');
    expect(card.textContent).toContain('Category: top news');
    expect(card.textContent).toContain(`Date: ${formatMediumDate(ARTICLE.datetime)}`);
    const link = within(card).getByRole('link', { name: 'Read More' });
    expect(link.getAttribute('href')).toBe('https://example.com/fed');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://example.com/fed.jpg');
  });

  it("shows the stock variant as 'source | category' and the bare summary", () => {
    renderScreen(<NewsCard article={ARTICLE} variant="stock" />);
    const card = screen.getByRole('article', { name: 'Fed holds rates steady' });
    expect(within(card).getByText('Reuters | top news')).toBeTruthy();
    expect(within(card).getByText('Policymakers see inflation cooling.')).toBeTruthy();
    expect(card.textContent).not.toContain('Summary:');
    expect(card.textContent).not.toContain('Date:');
  });

  it('renders hostile content inert: no link or image for non-http(s) URLs, markup as text', () => {
    const hostile = {
      ...ARTICLE,
      headline: '<b>Breaking</b>',
      summary: '<script>alert(1)</script><img src=x onerror=alert(1)>',
      url: 'javascript:alert(1)',
      image: 'data:image/svg+xml,<svg onload=alert(1)>',
    };
    const { container } = renderScreen(<NewsCard article={hostile} />);
    const card = screen.getByRole('article', { name: '<b>Breaking</b>' });
    expect(within(card).queryByRole('link')).toBeNull();
    expect(card.textContent).toContain('<script>alert(1)</script><img src=x onerror=alert(1)>');
    expect(container.querySelector('script, img, b')).toBeNull();
  });

  it("links and shows the simulated market's same-origin paths (they load wherever the app is opened)", () => {
    const local = { ...ARTICLE, url: '/simulated-news/AAPL-2026-11-20-2', image: '/simulated-news/AAPL-2026-11-20-2/image.svg' };
    const { container } = renderScreen(<NewsCard article={local} />);
    expect(screen.getByRole('link', { name: 'Read More' }).getAttribute('href')).toBe('/simulated-news/AAPL-2026-11-20-2');
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/simulated-news/AAPL-2026-11-20-2/image.svg');
  });

  it('leaves the image out when it is empty', () => {
    const { container } = renderScreen(<NewsCard article={{ ...ARTICLE, image: '' }} />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Read More' })).toBeTruthy();
  });
});
