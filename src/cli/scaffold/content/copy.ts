// The texts of the home page.
export default {
  heading: 'Hello from My Site',
  intro: 'This page was rendered to HTML by site-gen. The button below is an island: its JavaScript loads on its own.',
  button: 'Count clicks',
};
