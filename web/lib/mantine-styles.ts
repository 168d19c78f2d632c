/**
 * All of Mantine's styles (the `mantine` layer), for the screens and widgets beyond the first
 * screens (web/mantine-first-screens.css has theirs). Vite loads the stylesheet before the module
 * that asks for it runs, so nothing draws unstyled.
 */
export const loadMantineStyles = () => import('@mantine/core/styles.layer.css');
