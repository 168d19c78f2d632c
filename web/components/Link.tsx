/** Mantine's Anchor and Button rendered as router links, so navigation stays in the app. */
import { forwardRef } from 'react';
import { Link, type LinkProps } from 'react-router';
import { Anchor, Button, type AnchorProps, type ButtonProps } from '@mantine/core';

export const AnchorLink = forwardRef<HTMLAnchorElement, AnchorProps & LinkProps>(function AnchorLink(props, ref) {
  return <Anchor component={Link} ref={ref} {...props} />;
});

export const ButtonLink = forwardRef<HTMLAnchorElement, ButtonProps & LinkProps>(function ButtonLink(props, ref) {
  return <Button component={Link} ref={ref} {...props} />;
});
