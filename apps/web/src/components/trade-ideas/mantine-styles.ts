// Mantine stylesheets of what the shared trade-idea components render beyond main.tsx's
// (mantine-styles.test.ts checks them); every screen that uses the components gets them.
import '@mantine/core/styles/Accordion.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Progress.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
