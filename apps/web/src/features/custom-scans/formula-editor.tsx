import { Alert, Code, Stack, Text, Textarea } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { TONE } from '../../theme';
import { excerptAt, NESTED_MESSAGE, type FormulaCheck } from './formula-model';

/** How the formula reads back as rows: '3 conditions in the builder'. */
function groupsSummary(check: Extract<FormulaCheck, { state: 'groups' }>): string {
  const count = check.groups.all.length + check.groups.any.length + check.groups.none.length;
  return `Shown as ${count} ${count === 1 ? 'condition' : 'conditions'} in the builder.`;
}

/**
 * Formula mode: the scan as one expression, checked as the user types (core's parser). A mistake
 * shows its message and a caret under the character it points at; a formula whose nesting the three
 * groups cannot show says so and stays here.
 */
export function FormulaEditor({ value, onChange, check }: { value: string; onChange: (text: string) => void; check: FormulaCheck }) {
  const error = check.state === 'error' ? check : null;
  const excerpt = error ? excerptAt(value, error.position) : null;
  return (
    <Stack gap="xs">
      <Textarea
        label="Formula"
        description="Conditions joined by and, or and not, e.g. rsi(14) < 30 and close > sma(200) and rvol >= 1.5"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error?.message}
        autosize
        minRows={3}
        maxRows={10}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      {excerpt && (
        <Code block aria-hidden style={{ whiteSpace: 'pre', overflowX: 'auto' }}>
          {`${excerpt.excerpt}\n${' '.repeat(excerpt.caret)}^`}
        </Code>
      )}
      {check.state === 'groups' && (
        <Text size="sm" c={TONE.success} role="status">
          {groupsSummary(check)}
        </Text>
      )}
      {check.state === 'nested' && (
        <Alert color={TONE.info} variant="light" icon={<IconInfoCircle size={18} aria-hidden />} role="status">
          {NESTED_MESSAGE}
        </Alert>
      )}
    </Stack>
  );
}
